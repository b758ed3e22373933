/// What `accounts:revokeToken` revokes (`tokenType`); FirebaseAuth's iOS SDK sends the number.
///
/// - Concurrency: `Sendable` value.
package enum RevokeTokenType: String, WireEnum {
  case refreshToken = "REFRESH_TOKEN"
  case accessToken = "ACCESS_TOKEN"
  /// An authorization code, which the backend exchanges for the token it then revokes.
  case code = "CODE"

  package var protoNumber: Int {
    switch self {
    case .refreshToken: 1
    case .accessToken: 2
    case .code: 3
    }
  }
}
