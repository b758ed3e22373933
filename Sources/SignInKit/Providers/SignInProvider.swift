/// A sign-in method that talks to an identity provider and returns a credential for the backend.
///
/// ``Auth/signIn(with:)`` calls ``credential()`` off the UI actor, then exchanges the credential
/// with the backend. A provider keeps one attempt's transient data (PKCE verifier, nonce, loopback
/// listener) in its own actor state.
///
/// - Concurrency: conformers are actors. ``credential()`` must honour cancellation: when the
///   caller's task is cancelled it should stop talking to the IdP and throw.
public protocol SignInProvider: Actor {
  /// Which provider this is (`google.com`, `apple.com`, …).
  var id: ProviderID { get }
  /// Talks to the IdP (a browser, a device code, a native sheet) and returns its credential.
  func credential() async throws -> ProviderCredential
  /// Forgets provider-side tokens, like `GIDSignIn.signOut()`. Called by ``Auth/signOut()``.
  func signOut() async
}
