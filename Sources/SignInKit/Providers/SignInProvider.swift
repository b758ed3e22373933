/// A sign-in method that talks to an identity provider and returns a credential for the backend.
///
/// ``Auth/signIn(with:)-(SignInProvider)`` calls ``credential()`` off the UI actor, then exchanges the credential
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

  /// Whether the provider still lets the user whose id there is `providerUserID` sign in to
  /// this app (Sign in with Apple's credential state). ``Auth/restorePreviousSignIn(alongWith:)``
  /// asks it for the restored user, and signs out when it says ``ProviderCredentialState/revoked``
  /// or ``ProviderCredentialState/transferred``.
  ///
  /// - Returns: `nil` when the provider cannot tell (the default).
  func credentialState(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState?

  /// One element each time the provider revokes a credential while the app runs; `Auth` then
  /// asks ``credentialState(forProviderUserID:)`` again. The default finishes at once.
  nonisolated var credentialRevocations: AsyncStream<Void> { get }
}

extension RestorableSignInProvider {
  public func credentialState(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState? {
    nil
  }

  public nonisolated var credentialRevocations: AsyncStream<Void> { AsyncStream { $0.finish() } }
}
