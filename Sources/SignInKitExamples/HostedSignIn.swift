import Foundation
import SignInKit

// snippet.begin hosted-microsoft
/// Microsoft through the project's hosted handler, asking for mail access and the consent page
/// every time, for work and school accounts only: the handler runs Microsoft's flow, so the app
/// has no Microsoft client of its own.
public func microsoftSignIn(for firebase: FirebaseBackend, configuration: FirebaseConfiguration) -> OAuthProvider {
  OAuthProvider(
    .microsoft, backend: firebase, scopes: ["mail.read"],
    customParameters: ["prompt": "consent", "tenant": "organizations"], clientID: configuration.clientID)
}
// snippet.end

// snippet.begin hosted-conflict
/// Signs in with GitHub. When GitHub's email belongs to an account that signs in with a
/// password, the person is asked for that password (`askPassword`, which returns `nil` when
/// they decline), signs in to the account, and GitHub is linked to it: the next time, GitHub
/// signs in to the same account.
public func signInWithGitHub(
  _ auth: Auth, github: OAuthProvider, askPassword: @Sendable (_ email: String) async -> String?
) async throws -> SignInResult {
  do {
    return try await auth.signIn(with: github)
  } catch let error as AuthError where error.code == .accountExistsWithDifferentCredential {
    guard let email = error.email, let credential = error.updatedCredential, let password = await askPassword(email)
    else { throw error }
    _ = try await auth.signIn(email: email, password: password)
    return try await auth.link(with: credential)
  }
}
// snippet.end

// snippet.begin hosted-emulator
/// GitHub through `signin serve`'s (or the Firebase emulator's) handler page, for a project run
/// offline: a backend made for the emulator points the provider at its page.
public func gitHubOffline(emulatorHost: String, projectID: String) throws -> (FirebaseBackend, OAuthProvider) {
  let backend = try FirebaseBackend.emulator(host: emulatorHost, projectID: projectID)
  return (backend, OAuthProvider(.github, backend: backend))
}
// snippet.end
