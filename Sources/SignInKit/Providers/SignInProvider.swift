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

/// A provider that keeps a session of its own at the IdP (Google's refresh token) and can bring
/// it back at launch, alongside the backend session; see
/// ``Auth/restorePreviousSignIn(alongWith:)``.
///
/// - Concurrency: conformers are actors. ``restoreSession()`` must honour cancellation.
public protocol RestorableSignInProvider: SignInProvider {
  /// Restores the provider-side session from what the provider stored.
  /// - Returns: `false` when nothing was stored.
  func restoreSession() async throws -> Bool
}
