import Foundation
import SignInKit

/// The longest value each account field may hold, checked on every path that stores one (client
/// calls, the admin API, import): a row costs what its fields weigh, so the caps on rows bound
/// the bytes too. Each limit is Firebase's where it has one.
///
/// | field | at most | refused with |
/// |---|---|---|
/// | email | 254 bytes (RFC 5321's path) | `INVALID_EMAIL` |
/// | password | 4,096 characters (Firebase's password policy) | `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` |
/// | display name | 256 characters | `INVALID_ARGUMENT` |
/// | photo URL | 2,048 bytes | `INVALID_ARGUMENT` |
///
/// - Concurrency: a namespace of constants and pure functions.
package enum FieldLimits {
  package static let email = 254
  package static let password = 4_096
  package static let displayName = 256
  package static let photoURL = 2_048

  /// Refuses a display name or photo URL longer than its limit, saying which and how long.
  package static func checkProfile(displayName: String?, photoURL: URL?) throws {
    if let displayName, displayName.count > Self.displayName {
      throw AuthError(
        firebase: .invalidArgument,
        message: "displayName has \(displayName.count) characters; it may have at most \(Self.displayName).")
    }
    if let photoURL, photoURL.absoluteString.utf8.count > Self.photoURL {
      throw AuthError(
        firebase: .invalidArgument,
        message: "photoUrl has \(photoURL.absoluteString.utf8.count) bytes; it may have at most \(Self.photoURL).")
    }
  }
}
