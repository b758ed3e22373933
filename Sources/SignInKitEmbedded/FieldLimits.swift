import Foundation
import SignInKit
import SignInWire

/// The longest value each stored field may hold, checked where the value enters on every path
/// that stores it (client calls, identity providers' claims, the admin API, import): a row
/// costs what its fields weigh, so the caps on rows bound the bytes too. Each limit is
/// Firebase's where it has one.
///
/// | field | at most | refused with |
/// |---|---|---|
/// | email | 254 bytes (RFC 5321's path), no control characters | `INVALID_EMAIL` |
/// | password | 4,096 characters (Firebase's password policy) | `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` |
/// | display name | 256 characters | `INVALID_ARGUMENT` |
/// | photo URL | 2,048 bytes | `INVALID_ARGUMENT` |
/// | an identity provider's user id | 256 bytes, no control characters | `INVALID_IDP_RESPONSE` |
/// | custom-token and custom claims | 1,000 bytes of JSON (Firebase's) | `CLAIMS_TOO_LARGE` |
/// | `continueUrl` | 2,048 bytes | `INVALID_CONTINUE_URI` |
/// | second factor's and passkey's name | 128 characters | `INVALID_ARGUMENT` |
/// | passkey sign-in's `sessionId` | 256 bytes | `INVALID_ARGUMENT` |
/// | tenant's display name | 256 characters | `INVALID_ARGUMENT` |
/// | provider config's client id, issuer, entity id, URLs | 2,048 bytes | `INVALID_ARGUMENT` |
/// | SAML certificate | 16,384 bytes each, 10 per config | `INVALID_ARGUMENT` |
///
/// - Concurrency: a namespace of constants and pure functions.
package enum FieldLimits {
  package static let email = 254
  package static let password = 4_096
  package static let displayName = 256
  package static let photoURL = 2_048

  /// A field a caller may send, with the longest value it takes and the error past that.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Field: Sendable {
    /// The field's name on the wire, for the message.
    package var name: String
    /// The most it may hold: characters, or bytes of UTF-8 when ``countsBytes``.
    package var limit: Int
    package var countsBytes: Bool
    package var code: FirebaseErrorCode

    package static let providerUserID = Field(
      name: "the provider's user id", limit: 256, countsBytes: true, code: .invalidIdpResponse)
    package static let claims = Field(name: "claims", limit: 1_000, countsBytes: true, code: .claimsTooLarge)
    package static let continueURL = Field(
      name: "continueUrl", limit: 2_048, countsBytes: true, code: .invalidContinueUri)
    package static let secondFactorName = Field(
      name: "displayName", limit: 128, countsBytes: false, code: .invalidArgument)
    package static let passkeyName = Field(name: "name", limit: 128, countsBytes: false, code: .invalidArgument)
    package static let sessionID = Field(name: "sessionId", limit: 256, countsBytes: true, code: .invalidArgument)
    package static let tenantName = Field(name: "displayName", limit: 256, countsBytes: false, code: .invalidArgument)
    package static let configValue = Field(
      name: "a provider config's value", limit: 2_048, countsBytes: true, code: .invalidArgument)
    package static let certificate = Field(
      name: "x509Certificate", limit: 16_384, countsBytes: true, code: .invalidArgument)
    package static let displayName = Field(
      name: "displayName", limit: FieldLimits.displayName, countsBytes: false, code: .invalidArgument)
    package static let photoURL = Field(
      name: "photoUrl", limit: FieldLimits.photoURL, countsBytes: true, code: .invalidArgument)
  }

  /// Certificates one SAML provider config may list.
  package static let certificatesPerConfig = 10

  /// `value`, when it fits `field`.
  ///
  /// - Throws: `field.code`, saying how long the value is and what the limit is.
  @discardableResult
  package static func checked(_ value: String, _ field: Field, named name: String? = nil) throws -> String {
    let length = field.countsBytes ? value.utf8.count : value.count
    guard length <= field.limit else {
      let unit = field.countsBytes ? "bytes" : "characters"
      throw AuthError(
        firebase: field.code,
        message: "\(name ?? field.name) has \(length) \(unit); it may have at most \(field.limit). Send a shorter one.")
    }
    return value
  }

  /// Refuses `value`, when there is one, past `field`'s limit.
  package static func check(_ value: String?, _ field: Field, named name: String? = nil) throws {
    if let value { try checked(value, field, named: name) }
  }

  /// Refuses a display name or photo URL longer than its limit, saying which and how long.
  package static func checkProfile(displayName: String?, photoURL: URL?) throws {
    if let displayName { try checked(displayName, .displayName) }
    if let photoURL { try checked(photoURL.absoluteString, .photoURL) }
  }

  /// Whether `text` has a control character (C0, DEL or C1: a NUL, a newline, an escape), which
  /// no identifier (an email, a uid, a provider's user id) may hold: one that reaches a log, a
  /// header or a file name ends or forges a line.
  package static func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
  }
}
