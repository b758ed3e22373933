/// The provider ids Firebase Auth spells on the wire (`providerId`, `sign_in_provider`,
/// `deleteProvider`), written once. Ids are open-ended: a project's own OpenID Connect and SAML
/// providers are `oidc.NAME` and `saml.NAME`.
///
/// - Concurrency: `Sendable` value.
package struct WireProviderID: RawRepresentable, Hashable, LenientValue {
  package let rawValue: String
  package init(rawValue: String) { self.rawValue = rawValue }

  package init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  package static func lenient(from container: any SingleValueDecodingContainer) -> Self? {
    String.lenient(from: container).map(Self.init(rawValue:))
  }

  package static let password = Self(rawValue: "password")
  package static let anonymous = Self(rawValue: "anonymous")
  package static let phone = Self(rawValue: "phone")
  package static let custom = Self(rawValue: "custom")
  /// A passkey (the ID token's `sign_in_provider` after a passkey sign-in).
  package static let passkey = Self(rawValue: "passkey")
  package static let google = Self(rawValue: "google.com")
  package static let apple = Self(rawValue: "apple.com")
  package static let facebook = Self(rawValue: "facebook.com")
  package static let github = Self(rawValue: "github.com")
  package static let twitter = Self(rawValue: "twitter.com")
  package static let microsoft = Self(rawValue: "microsoft.com")
  package static let yahoo = Self(rawValue: "yahoo.com")

  /// The prefix of a project's OpenID Connect providers.
  package static let oidcPrefix = "oidc."
  /// The prefix of a project's SAML providers.
  package static let samlPrefix = "saml."

  package static func oidc(_ name: String) -> Self { Self(rawValue: oidcPrefix + name) }
}
