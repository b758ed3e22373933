import SignInKit

// snippet.begin apple-sign-in
/// The name to greet after Sign in with Apple, and whether this is the account's first sign-in.
public struct AppleWelcome: Equatable, Sendable {
  public var name: String?
  public var isFirstSignIn: Bool

  public init(name: String?, isFirstSignIn: Bool) {
    self.name = name
    self.isFirstSignIn = isFirstSignIn
  }
}

/// Sign in with Apple. `AppleProvider` makes the raw nonce, gives `authorize` its SHA-256 to
/// send to Apple, and gives the backend the raw one. Hashing it yourself and passing the hash
/// as the raw nonce is what fails in the blog-post version: the backend hashes what it is
/// given and compares that with the token's `nonce`.
public func signInWithApple(
  _ auth: Auth,
  authorize: @escaping @Sendable (_ hashedNonce: String) async throws -> AppleProvider.Authorization
) async throws -> AppleWelcome {
  let result = try await auth.signIn(with: AppleProvider(authorize: authorize))
  // Apple shares the name only the first time; SignInKit keeps it in the new user's profile.
  return AppleWelcome(name: result.user.displayName, isFirstSignIn: result.isNewUser)
}
// snippet.end

// snippet.begin apple-account-deletion
/// Deletes the signed-in account as App Store Review Guideline 5.1.1(v) asks of an app with
/// Sign in with Apple: Apple's sheet once more (a fresh authorization code and a recent
/// sign-in), Apple's token revoked with the code, then the account deleted. Nothing is deleted
/// when the person closes the sheet or the revocation fails.
public func deleteAccountSignedInWithApple(_ auth: Auth, apple: AppleProvider) async throws {
  try await auth.deleteAccount(reauthenticatingWith: apple)
  // auth.states now shows .signedOut(.userDeleted).
}

/// At launch: the previous session, unless the person stopped using their Apple ID with the app
/// (Settings → Apple Account → Sign in with Apple) or the app changed teams. Auth asks Apple's
/// credential state before it shows the session (AuthConfiguration.credentialStateSources), so a
/// revoked user never sees the home screen; while the app runs, a revocation signs them out too.
public func restoreCheckingApple(_ auth: Auth) async throws -> User? {
  try await auth.restorePreviousSignIn()
}
// snippet.end
