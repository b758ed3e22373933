import SignInWire

/// The identifier of a sign-in method, spelled as Firebase spells it (`password`, `google.com`).
///
/// - Concurrency: `Sendable` value.
public struct ProviderID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  /// Email and password.
  public static let password = ProviderID(rawValue: WireProviderID.password.rawValue)
  /// The email's sign-in link: a way an email signs in (``Auth/signInMethods(forEmail:)``)
  /// rather than a provider an account links.
  public static let emailLink = ProviderID(rawValue: "emailLink")
  /// A user with no credential yet.
  public static let anonymous = ProviderID(rawValue: WireProviderID.anonymous.rawValue)
  /// Google (OIDC).
  public static let google = ProviderID(rawValue: WireProviderID.google.rawValue)
  /// Sign in with Apple.
  public static let apple = ProviderID(rawValue: WireProviderID.apple.rawValue)
  /// A phone number proved by a code sent by SMS.
  public static let phone = ProviderID(rawValue: WireProviderID.phone.rawValue)
  /// A custom token minted by your server (the ID token's `sign_in_provider`).
  public static let custom = ProviderID(rawValue: WireProviderID.custom.rawValue)
  /// A passkey (WebAuthn), on the platform's authenticator or a security key.
  public static let passkey = ProviderID(rawValue: WireProviderID.passkey.rawValue)
  /// An OpenID Connect provider configured in Firebase or Identity Platform as `oidc.<name>`.
  public static func oidc(_ name: String) -> ProviderID { ProviderID(rawValue: WireProviderID.oidc(name).rawValue) }

  public var description: String { rawValue }
}

extension ProviderID {
  public static let microsoft = ProviderID(rawValue: WireProviderID.microsoft.rawValue)
  public static let yahoo = ProviderID(rawValue: WireProviderID.yahoo.rawValue)
  public static let github = ProviderID(rawValue: WireProviderID.github.rawValue)
  /// X, formerly Twitter.
  public static let twitter = ProviderID(rawValue: WireProviderID.twitter.rawValue)
  public static let facebook = ProviderID(rawValue: WireProviderID.facebook.rawValue)
  /// A SAML provider configured in Identity Platform as `saml.<name>`.
  public static func saml(_ name: String) -> ProviderID { ProviderID(rawValue: WireProviderID.samlPrefix + name) }
}
