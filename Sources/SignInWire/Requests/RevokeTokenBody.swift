/// Identity Toolkit v2 `accounts:revokeToken`: revokes a provider's token (Sign in with Apple's
/// authorization code) for the account `idToken` names.
///
/// - Concurrency: `Sendable` value.
package struct RevokeTokenBody: WireBody, TenantNaming {
  package var providerId: String?
  package var tokenType: RevokeTokenType?
  package var token: String?
  package var idToken: String?
  package var redirectUri: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case providerId, tokenType, token, idToken, redirectUri, tenantId
  }
}
