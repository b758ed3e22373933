import SignInKit

// snippet.begin recaptcha-enterprise
/// reCAPTCHA Enterprise tokens from Google's SDK, behind the protocol SignInKit asks, so the
/// package needs no dependency on it. `execute` is the SDK's client:
/// `try await Recaptcha.fetchClient(withSiteKey: siteKey).execute(withAction: RecaptchaAction(customAction: action))`.
public struct EnterpriseTokens: RecaptchaTokenProvider {
  public let clientType = RecaptchaClientType.ios
  let execute: @Sendable (_ action: String, _ siteKey: String) async throws -> String

  public init(execute: @escaping @Sendable (_ action: String, _ siteKey: String) async throws -> String) {
    self.execute = execute
  }

  public func token(for action: RecaptchaAction, siteKey: String) async throws -> String {
    try await execute(action.rawValue, siteKey)
  }
}

/// The production backend for a project that protects sign-in with reCAPTCHA Enterprise (SMS
/// defense): tokens go on the calls Firebase protects, and only when the project asks for them.
public func protectedBackend(_ configuration: FirebaseConfiguration, tokens: EnterpriseTokens) throws
  -> FirebaseBackend
{
  var backend = try FirebaseBackend(configuration: configuration)
  backend.recaptcha = tokens
  return backend
}
// snippet.end

// snippet.begin switch-tenant
/// A sign-in screen that asks for the organisation first: the `Auth` moves to its tenant, and
/// the person who signed in there before is back without signing in again.
public func chooseOrganisation(_ auth: Auth, tenantID: String) async throws -> User? {
  try await auth.switchTenant(to: tenantID)
}
// snippet.end
