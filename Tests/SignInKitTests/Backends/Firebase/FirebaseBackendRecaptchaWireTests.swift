import Foundation
import SignInConcurrency
import SignInKit
import SignInKitTesting
import Testing

/// reCAPTCHA Enterprise on the wire, as FirebaseAuth sends it: the project's settings read once
/// (`GET v2/recaptchaConfig` for the platform's key), then `captchaResponse` (`captchaResp` for
/// `sendOobCode`), `clientType` and `recaptchaVersion` on each protected call. Each request
/// against a golden file, which `DiscoveryConformanceTests` checks against Google's documents.
@Suite struct FirebaseBackendRecaptchaWireTests {
  /// Tokens that name their action and key, and the actions asked for.
  final class NamedTokens: RecaptchaTokenProvider {
    let clientType = RecaptchaClientType.ios
    let asked = Locked<[String]>([])

    func token(for action: RecaptchaAction, siteKey: String) async throws -> String {
      asked.withLock { $0.append("\(action)@\(siteKey)") }
      return "TOKEN-\(action)"
    }
  }

  static let settings = Reply.status(
    200,
    #"{"recaptchaEnforcementState":[{"provider":"EMAIL_PASSWORD_PROVIDER","enforcementState":"ENFORCE"},"#
      + #"{"provider":"PHONE_PROVIDER","enforcementState":"AUDIT"}],"recaptchaKey":"projects/demo-project/keys/KEY-1"}"#
  )
  typealias Reply = RecordingTransport.Reply

  static let signedIn = Reply.status(
    200, #"{"localId":"uid1","email":"ada@example.com",\#(FirebaseBackendWireTests.tokens)}"#)

  @Test func protectedCallsCarryTheTokenAndTheSettingsAreReadOnce() async throws {
    let transport = RecordingTransport([
      Self.settings, Self.signedIn, .status(200, #"{"sessionInfo":"SESSION-1"}"#),
      .status(200, #"{"email":"ada@example.com"}"#),
    ])
    let tokens = NamedTokens()
    var backend = try FirebaseBackendWireTests.backend(transport)
    backend.recaptcha = tokens
    _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "pw-123456"))
    _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    _ = try await backend.sendOobCode(.passwordReset(email: "ada@example.com"), settings: nil)
    try FirebaseBackendPhoneWireTests.expectGoldens(
      [
        "recaptchaConfig", "signInWithPassword-recaptchaEnterprise", "sendVerificationCode-recaptchaEnterprise",
        "sendOobCode-reset-recaptchaEnterprise",
      ], transport)
    #expect(
      tokens.asked.withLock { $0 }
        == ["signInWithPassword@KEY-1", "sendVerificationCode@KEY-1", "getOobCode@KEY-1"])
  }

  @Test func withoutAProviderNothingIsReadAndARefusalSaysWhatToAdd() async throws {
    let transport = RecordingTransport([
      .status(400, #"{"error":{"code":400,"message":"MISSING_RECAPTCHA_TOKEN"}}"#)
    ])
    let backend = try FirebaseBackendWireTests.backend(transport)
    let error = try await #require(throws: AuthError.self) {
      try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    }
    #expect(error.code == .recaptchaRequired)
    #expect(error.message.contains("FirebaseBackend.recaptcha"))
    #expect(transport.requests.count == 1, "no settings read without a provider, and no retry")
  }

  @Test func anEnforcedKeyMissingForThePlatformIsAConfigurationError() async throws {
    let transport = RecordingTransport([
      .status(
        200, #"{"recaptchaEnforcementState":[{"provider":"PHONE_PROVIDER","enforcementState":"ENFORCE"}]}"#)
    ])
    var backend = try FirebaseBackendWireTests.backend(transport)
    backend.recaptcha = NamedTokens()
    let error = try await #require(throws: AuthError.self) {
      try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    }
    #expect(error.code == .misconfigured)
    #expect(transport.requests.count == 1, "the code is not asked for")
  }
}
