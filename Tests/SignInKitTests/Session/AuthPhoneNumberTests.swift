import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// Phone numbers as a sign-in method, on every backend: the scripted one, the embedded one and
/// `FirebaseBackend` talking to it over HTTP. Codes are read where each backend shows them (the
/// emulator's `verificationCodes` for the served one), as a test phone would receive them.
@Suite(.timeLimit(.minutes(3)))
struct AuthPhoneNumberTests {
  static let number = "+15555550100"
  static let otherNumber = "+447700900123"

  /// Texts a code to `number` and returns the verification and the code the phone received.
  static func textedCode(
    _ harness: Harness, to number: String = Self.number
  ) async throws -> (PhoneVerification, String) {
    let verification = try await harness.auth.verifyPhoneNumber(number)
    let code = try #require(await harness.controls.textedCode(for: verification.verificationID))
    return (verification, code)
  }

  /// A code that is not `code`.
  static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

  @Test(arguments: BackendKind.allCases)
  func aTextedCodeSignsUpThenSignsInToTheSameAccount(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let verification = try await harness.auth.verifyPhoneNumber("+1 (555) 555-0100")
    #expect(verification.phoneNumber == Self.number && verification.purpose == .phoneNumber)
    #expect(verification.expiresAt > harness.clock.date)
    let code = try #require(await harness.controls.textedCode(for: verification.verificationID))
    let first = try await harness.auth.signIn(with: verification, code: code)
    #expect(first.isNewUser && first.providerID == .phone)
    #expect(first.user.phoneNumber == Self.number)
    #expect(first.user.providers.map(\.providerID) == [.phone])
    #expect(!first.user.isAnonymous && !first.user.description.contains("5550100"))
    try await harness.auth.signOut()

    let (again, secondCode) = try await Self.textedCode(harness)
    let second = try await harness.auth.signIn(with: again, code: secondCode)
    #expect(!second.isNewUser && second.user.uid == first.user.uid)
    #expect(try harness.store.load()?.user.phoneNumber == Self.number)
  }

  @Test(arguments: BackendKind.allCases)
  func aNumberNotInInternationalFormIsRefusedBeforeAnythingIsSent(kind: BackendKind) async throws {
    let harness = Harness(kind)
    for typed in ["555 0100", "0044 7700 900123", "+1 555 CALL NOW", "+"] {
      let error = await #expect(throws: AuthError.self) { try await harness.auth.verifyPhoneNumber(typed) }
      #expect(error?.code == .invalidPhoneNumber)
      #expect(error?.message.contains("+15555550100") == true, "the error shows what to type")
    }
    if kind == .scripted { #expect(harness.backend.count(of: .sendPhoneCode) == 0) }
    #expect(try await harness.auth.pendingPhoneVerification() == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func aWrongCodeLeavesTheVerificationUsable(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (verification, code) = try await Self.textedCode(harness)
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(with: verification, code: Self.wrong(code))
    }
    #expect(error?.code == .invalidVerificationCode)
    #expect(harness.auth.currentUser == nil)
    #expect(try await harness.auth.pendingPhoneVerification() == verification)
    _ = try await harness.auth.signIn(with: verification, code: code)
    #expect(try await harness.auth.pendingPhoneVerification() == nil, "a used verification is forgotten")
  }

  @Test(arguments: BackendKind.allCases)
  func fiveWrongCodesSpendTheVerification(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (verification, code) = try await Self.textedCode(harness)
    for _ in 0..<5 {
      _ = try? await harness.auth.signIn(with: verification, code: Self.wrong(code))
    }
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(with: verification, code: code)
    }
    #expect(error?.code == .verificationExpired)
    #expect(error?.message.contains("new code") == true)
  }

  @Test(arguments: BackendKind.allCases)
  func anExpiredVerificationIsRefusedWithoutARequest(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (verification, code) = try await Self.textedCode(harness)
    harness.clock.advance(by: .seconds(10 * 60))
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(with: verification, code: code)
    }
    #expect(error?.code == .verificationExpired)
    if kind == .scripted { #expect(harness.backend.count(of: .signInWithPhoneNumber) == 0) }
    #expect(try await harness.auth.pendingPhoneVerification() == nil)
  }

  /// What a person does while the text arrives: the app goes away, and comes back to the code
  /// field with the verification it had.
  @Test(arguments: BackendKind.allCases)
  func thePendingVerificationSurvivesARelaunch(kind: BackendKind) async throws {
    let directory = try TemporaryDirectory()
    let harness = Harness(kind, store: FileSessionStore(directory: directory.url))
    let (verification, code) = try await Self.textedCode(harness)
    await harness.auth.shutdown()

    let clock = harness.clock
    let relaunched = Auth(
      backend: harness.backendUnderTest, store: FileSessionStore(directory: directory.url), clock: clock,
      now: { clock.date })
    let pending = try #require(try await relaunched.pendingPhoneVerification())
    #expect(pending == verification)
    let result = try await relaunched.signIn(with: pending, code: code)
    #expect(result.user.phoneNumber == Self.number)
    #expect(try await relaunched.pendingPhoneVerification() == nil)
  }

  @Test(arguments: BackendKind.allCases)
  func aNumberLinksToTheSignedInUserAndTheUIDStays(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let signedUp = try await harness.signUp()
    let (verification, code) = try await Self.textedCode(harness)
    let linked = try await harness.auth.linkPhoneNumber(with: verification, code: code)
    #expect(linked.user.uid == signedUp.user.uid && !linked.isNewUser)
    #expect(linked.user.phoneNumber == Self.number)
    #expect(Set(linked.user.providers.map(\.providerID)) == [.password, .phone])
    #expect(harness.auth.currentUser?.phoneNumber == Self.number)

    // A second number is an update, not a link.
    let (another, anotherCode) = try await Self.textedCode(harness, to: Self.otherNumber)
    let refused = await #expect(throws: AuthError.self) {
      try await harness.auth.linkPhoneNumber(with: another, code: anotherCode)
    }
    #expect(refused?.code == .providerAlreadyLinked)
    #expect(refused?.message.contains("updatePhoneNumber") == true)
    #expect(harness.auth.currentUser?.phoneNumber == Self.number)
  }

  @Test(arguments: BackendKind.allCases)
  func aNumberOfAnotherAccountIsNotLinked(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (verification, code) = try await Self.textedCode(harness)
    let owner = try await harness.auth.signIn(with: verification, code: code)
    try await harness.auth.signOut()
    let signedUp = try await harness.signUp()

    let (again, againCode) = try await Self.textedCode(harness)
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.linkPhoneNumber(with: again, code: againCode)
    }
    #expect(error?.code == .credentialAlreadyInUse)
    #expect(harness.auth.currentUser?.uid == signedUp.user.uid, "the session stays")
    #expect(harness.auth.currentUser?.phoneNumber == nil)
    #expect(owner.user.uid != signedUp.user.uid)
  }

  @Test(arguments: BackendKind.allCases)
  func anUpdatedNumberReplacesTheOldOne(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (verification, code) = try await Self.textedCode(harness)
    let first = try await harness.auth.signIn(with: verification, code: code)

    let (new, newCode) = try await Self.textedCode(harness, to: Self.otherNumber)
    let updated = try await harness.auth.updatePhoneNumber(with: new, code: newCode)
    #expect(updated.uid == first.user.uid && updated.phoneNumber == Self.otherNumber)
    #expect(try harness.store.load()?.user.phoneNumber == Self.otherNumber)
    try await harness.auth.signOut()

    // The new number signs in to the account; the old one belongs to nobody now.
    let (byNew, byNewCode) = try await Self.textedCode(harness, to: Self.otherNumber)
    #expect(try await harness.auth.signIn(with: byNew, code: byNewCode).user.uid == first.user.uid)
    try await harness.auth.signOut()
    let (byOld, byOldCode) = try await Self.textedCode(harness)
    #expect(try await harness.auth.signIn(with: byOld, code: byOldCode).isNewUser)
  }

  @Test(arguments: BackendKind.allCases)
  func anUnlinkedNumberNoLongerSignsIn(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let signedUp = try await harness.signUp()
    let (verification, code) = try await Self.textedCode(harness)
    _ = try await harness.auth.linkPhoneNumber(with: verification, code: code)
    let user = try await harness.auth.unlink(.phone)
    #expect(user.phoneNumber == nil && user.providers.map(\.providerID) == [.password])
    try await harness.auth.signOut()

    let (again, againCode) = try await Self.textedCode(harness)
    let result = try await harness.auth.signIn(with: again, code: againCode)
    #expect(result.isNewUser && result.user.uid != signedUp.user.uid)
  }

  @Test func aCodeForASecondFactorDoesNotSignIn() async throws {
    let harness = Harness(.scripted)
    let (verification, code) = try await Self.textedCode(harness)
    var other = verification
    other.purpose = .secondFactorEnrollment
    let error = await #expect(throws: AuthError.self) { try await harness.auth.signIn(with: other, code: code) }
    #expect(error?.code == .invalidVerificationCode)
    #expect(harness.backend.count(of: .signInWithPhoneNumber) == 0)
  }
}
