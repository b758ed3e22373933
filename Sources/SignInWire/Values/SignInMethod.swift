/// A way an email signs in, as `accounts:createAuthUri` lists it (`signinMethods`): a password,
/// an emailed link, or an identity provider's id.
///
/// - Concurrency: `Sendable` value.
package struct SignInMethod: RawRepresentable, Hashable, LenientValue {
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

  package static let password = Self(rawValue: WireProviderID.password.rawValue)
  package static let emailLink = Self(rawValue: "emailLink")

  /// Signing in with the identity provider `provider`.
  package static func identityProvider(_ provider: WireProviderID) -> Self { Self(rawValue: provider.rawValue) }
}
