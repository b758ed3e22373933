/// Secure Token `token`: a refresh's new tokens, under the proto's names (`id_token`).
/// `access_token` is the same ID token.
///
/// - Concurrency: `Sendable` value.
package struct SecureTokenReply: WireBody, LenientValue {
  @Lenient package var idToken: String?
  @Lenient package var accessToken: String?
  @Lenient package var refreshToken: String?
  @Lenient package var expiresIn: String?
  @Lenient package var tokenType: String?
  @Lenient package var userId: String?
  @Lenient package var projectId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken = "id_token"
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case expiresIn = "expires_in"
    case tokenType = "token_type"
    case userId = "user_id"
    case projectId = "project_id"
  }
}
