/// A provider for a credential the app already holds (from GoogleSignIn, or its own OpenID
/// flow): ``credential()`` returns it, and ``signOut()`` has nothing to forget here.
///
/// - Concurrency: actor.
actor HeldCredential: SignInProvider {
  nonisolated let id: ProviderID
  private let held: ProviderCredential

  init(_ credential: ProviderCredential) {
    id = credential.providerID
    held = credential
  }

  func credential() async throws -> ProviderCredential { held }

  func signOut() async {}
}
