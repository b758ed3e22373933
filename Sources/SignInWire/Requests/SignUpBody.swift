/// `accounts:signUp`: a new account (email and password, or anonymous), or an anonymous account
/// given an email and password when `idToken` is set. An administrator's
/// `projects/P/accounts` sends the same body with the account's settings (`localId`,
/// `emailVerified`, `disabled`…).
///
/// - Concurrency: `Sendable` value.
package struct SignUpBody: WireBody, TenantNaming {
  package var email: String?
  package var password: String?
  package var displayName: String?
  package var photoUrl: String?
  package var idToken: String?
  package var returnSecureToken: Bool?
  package var tenantId: String?
  // An administrator's.
  package var localId: String?
  package var phoneNumber: String?
  package var emailVerified: Bool?
  package var disabled: Bool?
  package var targetProjectId: String?
  package var captchaResponse: String?
  package var clientType: String?
  package var recaptchaVersion: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case email, password, displayName, photoUrl, idToken, returnSecureToken, tenantId, localId, phoneNumber,
      emailVerified, disabled, targetProjectId, captchaResponse, clientType, recaptchaVersion
  }

  package static var unlistedFields: [String: String] {
    ["returnSecureToken": Self.returnSecureTokenReason]
  }
}

extension SignUpBody: RecaptchaCarrying {}
