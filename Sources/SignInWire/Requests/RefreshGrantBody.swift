/// Secure Token `token`: a refresh grant. Clients send it as a form
/// (`grant_type=refresh_token&refresh_token=…`), the proto's field names; a JSON body works too.
///
/// - Concurrency: `Sendable` value.
package struct RefreshGrantBody: WireBody {
  package var grantType: String?
  package var refreshToken: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case grantType, refreshToken
  }

  /// The only grant served.
  package static let refreshTokenGrant = "refresh_token"

  /// A refresh grant of `refreshToken`.
  package init(refreshToken: String) {
    grantType = Self.refreshTokenGrant
    self.refreshToken = refreshToken
  }
}
