import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Items 4, 5 and 6 of the third hardening: a pending second factor cannot be guessed, a code
/// cannot be replayed, and no first factor that ends in a session skips the second.
@Suite struct SecondFactorAttackTests {
  let clock = TestDate()
  let backend: EmbeddedBackend
  static let google = try! EmbeddedIdentityProvider.google(now: { Date(timeIntervalSince1970: 1_800_000_000) })

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.identityProviders = try EmbeddedBackend.Configuration(trusting: [Self.google]).identityProviders
    backend = try EmbeddedTestBackend.backend(configuration, clock: clock)
  }

  /// A password account with a verified email and one TOTP factor; its uid, factor and secret.
  func enrolledAccount(_ email: String = "ada@example.com") async throws -> (
    uid: String, factor: String, secret: [UInt8]
  ) {
    let session = try await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
    try await verify(email, idToken: session.tokens.idToken)
    return try await enroll(uid: session.localID, idToken: session.tokens.idToken)
  }

  func verify(_ email: String, idToken: String) async throws {
    _ = try await backend.sendOobCode(.verifyEmail(idToken: idToken), settings: nil)
    let code = try #require(await backend.mailbox(for: email).last?.code)
    _ = try await backend.update(UpdateAccountRequest(oobCode: code))
  }

  func enroll(uid: String, idToken: String) async throws -> (uid: String, factor: String, secret: [UInt8]) {
    guard case .secret(let totp) = try await backend.secondFactor(.startTOTPEnrollment(idToken: idToken)) else {
      throw AuthError(.internal, "no secret")
    }
    let secret = try #require(Base32.decode(totp.secretKey))
    _ = try await backend.secondFactor(
      .finalizeTOTPEnrollment(
        idToken: idToken, sessionInfo: totp.sessionInfo, code: OneTimePassword.totp(secret: secret, at: clock.now),
        displayName: nil))
    let factor = try #require(try await backend.storedAccount(uid: uid)?.secondFactors?.first?.enrollmentID)
    // The enrollment used this step's code; the next sign-in needs the next one.
    clock.advance(30)
    return (uid, factor, secret)
  }

  /// The pending credential a password sign-in leaves for the second factor.
  func challenge(_ email: String = "ada@example.com") async throws -> String {
    do {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: email, password: "correct horse"))
    } catch let error as AuthError {
      return try #require(error.secondFactor?.pendingCredential)
    }
    Issue.record("the sign-in did not ask for the second factor")
    return ""
  }

  func finish(_ pending: String, _ factor: String, code: String) async -> String? {
    await EmbeddedBackendCustomTokenTests.refusal {
      _ = try await backend.secondFactor(
        .finalizeTOTPSignIn(pendingCredential: pending, enrollmentID: factor, code: code))
    }
  }

  static func wrong(_ right: String) -> String { right == "000000" ? "111111" : "000000" }

  // MARK: Item 4: guessing

  @Test func aPendingSignInIsSpentAfterFiveWrongCodes() async throws {
    let (_, factor, secret) = try await enrolledAccount()
    let pending = try await challenge()
    let right = OneTimePassword.totp(secret: secret, at: clock.now)
    for _ in 1...4 { #expect(await finish(pending, factor, code: Self.wrong(right)) == "INVALID_CODE") }
    #expect(await finish(pending, factor, code: Self.wrong(right)) == "TOO_MANY_ATTEMPTS_TRY_LATER")
    // Spent: even the right code does not finish it.
    #expect(await finish(pending, factor, code: right) == "INVALID_MFA_PENDING_CREDENTIAL")
  }

  @Test func wrongCodesCountTowardTheAccountsThrottleAcrossPendingSignIns() async throws {
    let (_, factor, secret) = try await enrolledAccount()
    let right = OneTimePassword.totp(secret: secret, at: clock.now)
    // Five wrong codes over two pending sign-ins, each started with the right password.
    let first = try await challenge()
    for _ in 1...3 { _ = await finish(first, factor, code: Self.wrong(right)) }
    let second = try await challenge()
    for _ in 1...2 { _ = await finish(second, factor, code: Self.wrong(right)) }
    // Throttled now, like after five wrong passwords: neither a password nor a code is looked at.
    let password = await EmbeddedBackendCustomTokenTests.refusal {
      _ = try await backend.signInWithPassword(
        PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    }
    #expect(password?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER :") == true)
    #expect(await finish(second, factor, code: right)?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER :") == true)
  }

  // MARK: Item 5: replay

  @Test func aCodeIsAcceptedOnceInItsWindow() async throws {
    let (_, factor, secret) = try await enrolledAccount()
    let code = OneTimePassword.totp(secret: secret, at: clock.now)
    #expect(await finish(try await challenge(), factor, code: code) == nil)
    // The same code, still inside its window, for another sign-in: refused (RFC 6238 §5.2).
    clock.advance(10)
    #expect(await finish(try await challenge(), factor, code: code) == "INVALID_CODE")
    // The next step's code works.
    clock.advance(30)
    #expect(
      await finish(try await challenge(), factor, code: OneTimePassword.totp(secret: secret, at: clock.now)) == nil)
  }

  // MARK: Item 6: every first factor asks

  @Test func anIdentityProviderSignInAsksForTheSecondFactor() async throws {
    let token = try Self.google.idToken(email: "grace@example.com")
    let first = try await backend.signInWithIdp(
      IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: token)))
    _ = try await enroll(uid: first.localID, idToken: first.tokens.idToken)
    let error = await #expect(throws: AuthError.self) {
      try await backend.signInWithIdp(
        IdpSignInRequest(
          credential: ProviderCredential(
            providerID: .google, idToken: try Self.google.idToken(email: "grace@example.com"))))
    }
    #expect(error?.code == .secondFactorRequired)
    #expect(error?.secondFactor?.firstFactor == .google)
  }

  @Test func aCustomTokenSignsInWithoutTheSecondFactorAsInFirebase() async throws {
    let (uid, _, _) = try await enrolledAccount()
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedCustomTokens = true
    let token = #"{"uid":"\#(uid)"}"#
    // The same data, with unsigned custom tokens allowed (the emulator's rule).
    let emulated = try EmbeddedTestBackend.backend(configuration, clock: clock)
    try await emulated.putStoredAccount(try #require(try await backend.storedAccount(uid: uid)))
    let session = try await emulated.signInWithCustomToken(CustomTokenSignInRequest(token: token))
    #expect(session.localID == uid)
  }
}
