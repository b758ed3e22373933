import Foundation
import SignInKit
import SignInKitEmbedded
import SignInKitExamples
import SignInKitTesting
import Testing

/// The migration article's "after" examples, run on the embedded backend.
@Suite(.timeLimit(.minutes(3)))
@MainActor struct MigrationExamplesTests {
  static func backend(trusting providers: [EmbeddedIdentityProvider] = []) throws -> EmbeddedBackend {
    var configuration = try EmbeddedBackend.Configuration(trusting: providers)
    configuration.scrypt = ScryptParameters(n: 1 << 10, r: 8, p: 1)
    configuration.signingKey = TestSigningKey.shared
    return try EmbeddedBackend(directory: nil, configuration: configuration)
  }

  @Test func theRootRestoresThePreviousSignInAndShowsIt() async throws {
    let backend = try Self.backend()
    let store = InMemorySessionStore()
    let previous = Auth(backend: backend, store: store)
    let user = try await previous.signUp(email: "ada@example.com", password: "correct horse").user
    await previous.shutdown()

    let auth = Auth(backend: backend, store: store)
    let root = AppRoot(auth: auth)
    #expect(root.model.state == .restoring)
    let running = Task { await root.run() }
    #expect(try await auth.restorePreviousSignIn() == user)
    await auth.shutdown()
    await running.value
    #expect(root.model.user == user)
    #expect(root.model.state.user == user)
  }

  @Test func aSignInIsOneOutcome() async throws {
    let auth = Auth(backend: try Self.backend(), store: InMemorySessionStore())
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    #expect(
      await signIn(auth, email: "ada@example.com", password: "wrong horse")
        == .failed("The password is wrong. Try again, or reset it."))
    guard case .signedIn(let user) = await signIn(auth, email: "ada@example.com", password: "correct horse") else {
      Issue.record("the right password did not sign in")
      return
    }
    #expect(user.email == "ada@example.com")
    await auth.shutdown()
  }

  @Test func theSignUpFormShowsTheResultWhereTheViewReadsIt() async throws {
    let auth = Auth(backend: try Self.backend(), store: InMemorySessionStore())
    let form = SignUpForm(auth: auth)
    form.email = "ada@example.com"
    form.password = "short"
    await form.submit()
    #expect(form.message?.hasPrefix("The password is too weak; use at least 6 characters.") == true)
    form.password = "correct horse"
    await form.submit()
    #expect(form.message == "Welcome, ada@example.com!")
    #expect(!form.isSubmitting)
    await auth.shutdown()
  }

  @Test func googleSignInTokensHandedOverSignInAndSignOutSignsOutOfBoth() async throws {
    let google = try EmbeddedIdentityProvider.google()
    let auth = Auth(backend: try Self.backend(trusting: [google]), store: InMemorySessionStore())
    let user = try await signInWithGoogleSignInTokens(
      auth, idToken: try google.idToken(email: "ada@example.com"), accessToken: "google-access-token")
    #expect(user.email == "ada@example.com")
    #expect(user.providers.map(\.providerID) == [.google])
    var signedOutOfGoogle = false
    try await signOutOfSignInKitAndGoogle(auth) { signedOutOfGoogle = true }
    #expect(signedOutOfGoogle)
    #expect(auth.currentUser == nil)
    // A token GoogleSignIn did not get from this IdP is refused.
    let impostor = try EmbeddedIdentityProvider.google()
    await #expect(throws: AuthError.self) {
      try await signInWithGoogleSignInTokens(
        auth, idToken: try impostor.idToken(email: "ada@example.com"), accessToken: "AT")
    }
  }

  @Test func aGuestsWorkMovesToTheAccountThatExistsAndTheGuestGoes() async throws {
    actor Carts: GuestWork {
      var items: [String: [String]] = [:]
      func move(from guestUID: String, to uid: String) async throws {
        items[uid, default: []] += items.removeValue(forKey: guestUID) ?? []
      }
      func add(_ item: String, for uid: String) { items[uid, default: []].append(item) }
    }
    let apple = try EmbeddedIdentityProvider.apple()
    let auth = Auth(backend: try Self.backend(trusting: [apple]), store: InMemorySessionStore())
    let tim: @Sendable (String) async throws -> AppleProvider.Authorization = { hashedNonce in
      AppleProvider.Authorization(identityToken: try apple.idToken(email: "tim@example.com", nonce: hashedNonce))
    }
    let existing = try await auth.signIn(with: AppleProvider(authorize: tim)).user
    try await auth.signOut()
    let carts = Carts()
    let guest = try await auth.signInAnonymously().user
    await carts.add("book", for: guest.uid)
    let user = try await signInKeepingGuestWork(auth, with: AppleProvider(authorize: tim), work: carts)
    #expect(user.uid == existing.uid)
    #expect(await carts.items == [existing.uid: ["book"]])
    await auth.shutdown()
  }

  @Test func appleSignInSendsTheHashedNonceToAppleAndKnowsTheFirstTime() async throws {
    let apple = try EmbeddedIdentityProvider.apple()
    let auth = Auth(backend: try Self.backend(trusting: [apple]), store: InMemorySessionStore())
    // Apple, played by the embedded IdP: it puts the nonce it was asked for in the token.
    let authorize: @Sendable (String) async throws -> AppleProvider.Authorization = { hashedNonce in
      AppleProvider.Authorization(
        identityToken: try apple.idToken(email: "tim@example.com", nonce: hashedNonce), givenName: "Tim",
        familyName: "Cook")
    }
    #expect(
      try await signInWithApple(auth, authorize: authorize) == AppleWelcome(name: "Tim Cook", isFirstSignIn: true))
    try await auth.signOut()
    #expect(try await signInWithApple(auth, authorize: authorize).isFirstSignIn == false)
    await auth.shutdown()
  }

  @Test func anAppleAccountIsDeletedAfterItsTokenIsRevokedAndARevokedAppleIDSignsOut() async throws {
    let apple = try EmbeddedIdentityProvider.apple()
    let backend = try Self.backend(trusting: [apple])
    let store = InMemorySessionStore()
    let sheet = AppleProvider { hashedNonce in
      AppleProvider.Authorization(
        identityToken: try apple.idToken(email: "tim@example.com", nonce: hashedNonce),
        authorizationCode: try apple.authorizationCode(email: "tim@example.com"))
    }
    let auth = Auth(backend: backend, store: store)
    let first = try await auth.signIn(with: sheet)
    try await deleteAccountSignedInWithApple(auth, apple: sheet)
    #expect(auth.currentState == .signedOut(.userDeleted))
    #expect(try await auth.signIn(with: sheet).user.uid != first.user.uid, "a new account")
    await auth.shutdown()

    // Next launch: Apple says the person stopped using their Apple ID with the app (the fake
    // stands where the system's credential state is on Apple platforms).
    var configuration = AuthConfiguration()
    configuration.credentialStateSources = [.apple: RevokedAppleID()]
    let launch = Auth(backend: backend, store: store, configuration: configuration)
    #expect(try await restoreCheckingApple(launch) == nil)
    #expect(launch.currentState == .signedOut(.credentialRevoked(.apple)))
    await launch.shutdown()
  }

  /// Apple's answer for an Apple ID the person stopped using with the app.
  struct RevokedAppleID: CredentialStateSource {
    func state(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState { .revoked }
    func revocations() -> AsyncStream<Void> { AsyncStream { $0.finish() } }
  }

  @Test func theUIMovesWhenTheSignedInUserChangesAndOnlyThen() async throws {
    let auth = Auth(backend: try Self.backend(), store: InMemorySessionStore())
    let (screens, screen) = AsyncStream.makeStream(of: Screen.self)
    let following = Task {
      await followSignedInUser(auth) { screen.yield($0) }
      screen.finish()
    }
    var next = screens.makeAsyncIterator()
    _ = try await auth.restorePreviousSignIn()
    #expect(await next.next() == .signIn)
    let user = try await auth.signUp(email: "ada@example.com", password: "correct horse").user
    #expect(await next.next() == .home(uid: user.uid))
    _ = try await auth.idToken(forceRefresh: true)  // a token refresh moves nothing
    try await auth.signOut()
    #expect(await next.next() == .signIn)
    await auth.shutdown()
    #expect(await next.next() == nil)
    await following.value
  }
}
