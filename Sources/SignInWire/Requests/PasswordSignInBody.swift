/// `accounts:signInWithPassword`.
///
/// - Concurrency: `Sendable` value.
package struct PasswordSignInBody: WireBody, TenantNaming {
  package var email: String?
  package var password: String?
  package var returnSecureToken: Bool?
  package var tenantId: String?
  package var captchaResponse: String?
  package var clientType: String?
  package var recaptchaVersion: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case email, password, returnSecureToken, tenantId, captchaResponse, clientType, recaptchaVersion
  }
}

extension PasswordSignInBody: RecaptchaCarrying {}
