/// An attribute `accounts:update` removes (`deleteAttribute`).
///
/// - Concurrency: `Sendable` value.
package enum AccountAttribute: String, WireEnum {
  case email = "EMAIL"
  case displayName = "DISPLAY_NAME"
  case provider = "PROVIDER"
  case photoURL = "PHOTO_URL"
  case password = "PASSWORD"
  case rawUserInfo = "RAW_USER_INFO"

  package var protoNumber: Int {
    switch self {
    case .email: 1
    case .displayName: 2
    case .provider: 3
    case .photoURL: 4
    case .password: 5
    case .rawUserInfo: 6
    }
  }
}
