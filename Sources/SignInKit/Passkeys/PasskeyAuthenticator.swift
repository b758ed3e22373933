import Foundation

/// What makes and uses passkeys for ``Auth``: the platform's authenticator on Apple platforms
/// (`PlatformPasskeyAuthenticator`, over `ASAuthorizationPlatformPublicKeyCredentialProvider`),
/// or the development authenticator of `SignInKitEmbedded` on Linux and in tests.
///
/// - Concurrency: `Sendable`; called from any isolation, one ceremony at a time per call.
public protocol PasskeyAuthenticator: Sendable {
  /// Makes a passkey for `request`'s relying party and user (`navigator.credentials.create`).
  ///
  /// - Cancellation: cancelling the calling task dismisses any sheet and throws
  ///   ``AuthError/Code/cancelled``.
  /// - Throws: ``AuthError/Code/userCancelled`` when the person declined,
  ///   ``AuthError/Code/relyingPartyMismatch`` when the app may not make passkeys for the
  ///   relying party (its associated domains do not list it), ``AuthError/Code/passkeyRefused``
  ///   when the authenticator failed or already holds one of the excluded credentials.
  func register(_ request: PasskeyRegistrationRequest) async throws -> PasskeyRegistration

  /// Signs `request`'s challenge with a passkey for its relying party
  /// (`navigator.credentials.get`); with no allowed credentials, any the person picks.
  ///
  /// - Cancellation: as ``register(_:)``.
  /// - Throws: ``AuthError/Code/userCancelled``, ``AuthError/Code/noPasskey`` when the
  ///   authenticator has none for the relying party (or none of those allowed),
  ///   ``AuthError/Code/relyingPartyMismatch``, ``AuthError/Code/passkeyRefused``.
  func authenticate(_ request: PasskeyAssertionRequest) async throws -> PasskeyAssertion
}
