/// Identity Toolkit v2 `accounts:revokeToken`: revokes a provider's token (Sign in with Apple's
/// authorization code) for the account `idToken` names. `tokenType` is the enum's name (`CODE`) or,
/// as FirebaseAuth's iOS SDK sends it, its number.
///
/// - Concurrency: `Sendable` value.
package struct RevokeTokenBody: WireBody {
  package var providerId: String?
  package var tokenType: String?
  package var token: String?
  package var idToken: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case providerId, tokenType, token, idToken
  }
}
