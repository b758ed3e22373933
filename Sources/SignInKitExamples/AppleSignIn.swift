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
