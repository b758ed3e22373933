import Foundation
import SignInCrypto
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// TOTP second factors on the embedded backend and on `FirebaseBackend` talking to it over
/// HTTP (Identity Platform's v2 wire). Codes are computed as an authenticator app would, at the
/// backend's (manual) clock.
@Suite(.timeLimit(.minutes(3)))
struct AuthSecondFactorTests {
  static let kinds: [BackendKind] = [.embedded, .served, .inProcess]

  /// What the authenticator app shows for `secret` now.
  static func code(_ secret: TOTPSecret, _ harness: Harness) throws -> String {
    OneTimePassword.totp(secret: try #require(Base32.decode(secret.secretKey)), at: harness.clock.date)
  }

  /// A signed-up user whose email is verified, as enrolling requires.
  static func verifiedUser(_ harness: Harness, _ email: String = "ada@example.com") async throws -> User {
    try await harness.signUp(email)
    try await harness.auth.sendEmailVerification()
    let code = try #require(await harness.controls.codes(sentTo: email).last)
    try await harness.auth.applyActionCode(code)
    return try #require(harness.auth.currentUser)
  }

  /// A verified user with one TOTP factor named "Phone", and its secret.
  static func enrolledUser(_ harness: Harness) async throws -> (User, TOTPSecret) {
    _ = try await verifiedUser(harness)
    let secret = try await harness.auth.startTOTPEnrollment()
    let user = try await harness.auth.finishTOTPEnrollment(
      secret, code: try code(secret, harness), displayName: "Phone")
    return (user, secret)
  }

  /// Review N10: a tenant's users enroll and use second factors as the project's do.
  @Test(arguments: kinds)
  func aTenantsUserEnrollsAndSignsInWithASecondFactor(kind: BackendKind) async throws {
    let harness = Harness(kind, tenantID: "shop-1a2b")
    let (user, secret) = try await Self.enrolledUser(harness)
    try await harness.auth.signOut()
    let error = try #require(
      await #expect(throws: AuthError.self) {
        try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
      })
    let challenge = try #require(error.secondFactor)
    harness.clock.advance(by: .seconds(30))
    let resolved = try await harness.auth.resolveSignIn(
      challenge, enrollmentID: challenge.factors[0].enrollmentID, code: try Self.code(secret, harness))
    #expect(resolved.user.uid == user.uid)
    #expect(try await harness.auth.idTokenResult().claims["firebase"]?.object?["tenant"]?.string == "shop-1a2b")
  }

  @Test(arguments: kinds)
  func enrollingNeedsAVerifiedEmail(kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let error = await #expect(throws: AuthError.self) { try await harness.auth.startTOTPEnrollment() }
    #expect(error?.code == .unverifiedEmail)
  }

  @Test(arguments: kinds)
  func aFactorIsEnrolledWithTheFirstRightCode(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let before = try await Self.verifiedUser(harness)
    let secret = try await harness.auth.startTOTPEnrollment()
    #expect(secret.codeLength == 6 && secret.codeInterval == .seconds(30) && secret.hashingAlgorithm == "HMAC_SHA1")
    #expect(!secret.description.contains(secret.secretKey))
    let wrong = await #expect(throws: AuthError.self) {
      try await harness.auth.finishTOTPEnrollment(
        secret, code: "000000" == (try Self.code(secret, harness)) ? "111111" : "000000")
    }
    #expect(wrong?.code == .invalidVerificationCode)
    let user = try await harness.auth.finishTOTPEnrollment(
      secret, code: try Self.code(secret, harness), displayName: "Phone")
    #expect(user.uid == before.uid)
    #expect(user.secondFactors.map(\.kind) == [.totp])
    #expect(user.secondFactors.first?.displayName == "Phone")
    #expect(harness.auth.currentUser == user)
    #expect(try harness.store.load()?.user == user)
  }

  @Test(arguments: kinds)
  func aSignInOfAnEnrolledAccountWaitsForTheSecondFactor(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (user, secret) = try await Self.enrolledUser(harness)
    try await harness.auth.signOut()
    let events = Recorder.start(harness.auth.events)
    let error = try #require(
      await #expect(throws: AuthError.self) {
        try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
      })
    #expect(error.code == .secondFactorRequired)
    let challenge = try #require(error.secondFactor)
    #expect(challenge.factors.map(\.enrollmentID) == user.secondFactors.map(\.enrollmentID))
    #expect(challenge.firstFactor == .password)
    #expect(!challenge.description.contains(challenge.pendingCredential))
    // Waiting for the second factor is not a failure, and nobody is signed in yet.
    #expect(await harness.shownState() == .signedOut(.userRequested))
    #expect(await harness.stateStore { $0.errorMessage } == nil)
    #expect(try harness.store.load() == nil)

    // A wrong code leaves the challenge usable.
    harness.clock.advance(by: .seconds(30))
    let factor = challenge.factors[0].enrollmentID
    let right = try Self.code(secret, harness)
    let wrong = await #expect(throws: AuthError.self) {
      try await harness.auth.resolveSignIn(
        challenge, enrollmentID: factor, code: right == "000000" ? "111111" : "000000")
    }
    #expect(wrong?.code == .invalidVerificationCode)
    let result = try await harness.auth.resolveSignIn(challenge, enrollmentID: factor, code: right)
    #expect(result.user.uid == user.uid)
    #expect(result.user.secondFactors == user.secondFactors)
    #expect(await harness.shownState() == .signedIn(result.user, .fresh))
    // Only the wrong code was a failure; being asked for the factor was not. Events keep their
    // order, so once the wrong code's failure arrived, an earlier one would have too.
    await events.wait {
      $0.contains { if case .failed(let error) = $0 { error.code == .invalidVerificationCode } else { false } }
    }
    let failures = events.values.compactMap { if case .failed(let error) = $0 { error.code } else { nil } }
    #expect(!failures.contains(.secondFactorRequired))
    // The challenge finished a sign-in once; it cannot start another.
    try await harness.auth.signOut()
    let reused = await #expect(throws: AuthError.self) {
      try await harness.auth.resolveSignIn(challenge, enrollmentID: factor, code: right)
    }
    #expect(reused?.code == .invalidCredential)
  }

  @Test(arguments: kinds)
  func unenrollingTheFactorEndsTheSecondStep(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (user, _) = try await Self.enrolledUser(harness)
    let unenrolled = try await harness.auth.unenrollSecondFactor(user.secondFactors[0].enrollmentID)
    #expect(unenrolled.secondFactors.isEmpty)
    let again = await #expect(throws: AuthError.self) {
      try await harness.auth.unenrollSecondFactor(user.secondFactors[0].enrollmentID)
    }
    #expect(again?.code == .noSuchProvider)
    try await harness.auth.signOut()
    let result = try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
    #expect(result.user.uid == user.uid)
  }

  @Test(arguments: kinds)
  func anEmailLinkSignInAlsoAsksForTheSecondFactor(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let (user, secret) = try await Self.enrolledUser(harness)
    try await harness.auth.signOut()
    try await harness.auth.sendSignInLink(to: "ada@example.com", settings: AuthActionCodeTests.settings)
    let link = try await AuthActionCodeTests.sentLink(harness, to: "ada@example.com")
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "ada@example.com", link: link)
    }
    let challenge = try #require(error?.secondFactor)
    // The enrollment used this step's code; a code works once (RFC 6238 §5.2), so the app shows
    // the next one.
    harness.clock.advance(by: .seconds(30))
    let result = try await harness.auth.resolveSignIn(
      challenge, enrollmentID: challenge.factors[0].enrollmentID, code: try Self.code(secret, harness))
    #expect(result.user.uid == user.uid)
  }

  @Test func aBackendWithoutSecondFactorsSaysSo() async throws {
    let harness = Harness(.scripted)
    try await harness.signUp()
    // What Firebase answers a project without Identity Platform.
    harness.backend.script(
      .secondFactor,
      .fail(
        AuthError(
          .operationNotAllowed, "Second factors need Identity Platform.", serverMessage: "OPERATION_NOT_ALLOWED")))
    let error = await #expect(throws: AuthError.self) { try await harness.auth.startTOTPEnrollment() }
    #expect(error?.code == .operationNotAllowed)
  }

  @Test func theOtpauthURIIsWhatAuthenticatorAppsScan() {
    let secret = TOTPSecret(secretKey: "JBSWY3DPEHPK3PXP", sessionInfo: "s")
    #expect(
      secret.otpauthURI(accountName: "ada@example.com", issuer: "Example").absoluteString
        == "otpauth://totp/Example:ada@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA1&digits=6&period=30"
    )
  }
}
