import SignInKit

// snippet.begin google-sign-in-hand-over
/// Signs in to SignInKit with what GoogleSignIn returned, for an app that keeps `GIDSignIn` for
/// the Google sheet: pass `result.user.idToken?.tokenString` and
/// `result.user.accessToken.tokenString` of `GIDSignIn.sharedInstance.signIn(withPresenting:)`.
/// The backend verifies the ID token as it verifies one from `OpenIDConnectProvider`.
public func signInWithGoogleSignInTokens(_ auth: Auth, idToken: String, accessToken: String) async throws -> User {
  try await auth.signIn(with: .google(idToken: idToken, accessToken: accessToken)).user
}

/// Signs out of both: SignInKit's session, then GoogleSignIn's, which the app keeps calling
/// itself (`GIDSignIn.sharedInstance.signOut()`, on the main actor), as it did beside FirebaseAuth.
@MainActor public func signOutOfSignInKitAndGoogle(_ auth: Auth, googleSignOut: () -> Void) async throws {
  try await auth.signOut()
  googleSignOut()
}
// snippet.end
