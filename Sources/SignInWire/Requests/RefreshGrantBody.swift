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

  /// The fields as a form sends them, under the proto's names (`grant_type`), absent ones left out.
  package var formFields: [(String, String)] {
    [(CodingKeys.grantType, grantType), (CodingKeys.refreshToken, refreshToken)].compactMap { key, value in
      value.map { (WireFieldName.snakeCased(key.stringValue), $0) }
    }
  }

  /// The grant a form's fields hold, matching names as ``WireBody/decoded(from:)`` does.
  package static func decoded(form fields: [String: String]) -> Self {
    var body = Self()
    for (name, value) in fields {
      switch WireFieldName.folded(name) {
      case WireFieldName.folded(CodingKeys.grantType.stringValue): body.grantType = body.grantType ?? value
      case WireFieldName.folded(CodingKeys.refreshToken.stringValue): body.refreshToken = body.refreshToken ?? value
      default: continue
      }
    }
    return body
  }
}
