/// Asks an identity provider about a user's credential: on Apple platforms
/// `SystemAppleIDCredentialState` (`ASAuthorizationAppleIDProvider`); in tests, a fake.
///
/// - Concurrency: `Sendable`; callable from any isolation.
public protocol CredentialStateSource: Sendable {
  /// The state of the credential of the user whose id at the provider is `providerUserID`.
  ///
  /// - Cancellation: stops waiting and throws.
  /// - Throws: when the provider cannot be asked (offline); the session is then kept.
  func state(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState

  /// A new stream with one element for each revocation the provider announces while the app
  /// runs (Apple's `credentialRevokedNotification`). Buffers the newest element only; ends
  /// when its consumer stops.
  func revocations() -> AsyncStream<Void>
}
