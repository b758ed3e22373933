import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import SignInTestSupport
import Testing

/// Sign in with Apple as the App Store asks: what Apple returned reaches the app, the token is
/// revoked before an account is deleted, and a revoked Apple ID ends the session. On the three
/// backends where the backend decides.
@Suite(.timeLimit(.minutes(3))) struct AuthAppleTests {
  static let apple = Harness.apple

  // MARK: - What Apple returned

  @Test(arguments: BackendKind.allCases)
  func theSignInResultCarriesWhatAppleReturned(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let result = try await harness.auth.signIn(with: Harness.appleProvider())
    let info = try #require(result.additionalUserInfo)
    #expect(info.providerID == .apple)
    #expect(info.providerUserID == Self.apple.subject(for: "tim@example.com"))
    #expect(info.email == "tim@example.com")
    #expect(info.realUserStatus == .likelyReal)
    #expect(info.authorizationCode?.isEmpty == false)
    #expect(info.profile["iss"] == .string("https://appleid.apple.com"))
    #expect(!info.description.contains(info.authorizationCode!), "the code is a secret")
    #expect(!String(reflecting: info).contains(info.authorizationCode!))
    await harness.auth.shutdown()
  }

  @Test func anEmailSignInHasNoAdditionalUserInfo() async throws {
    let harness = Harness()
    #expect(try await harness.signUp().additionalUserInfo == nil)
    await harness.auth.shutdown()
  }

  @Test func anAppleIDCredentialKeepsItsCodeIdentifierEmailAndStatus() throws {
    let authorization = try AppleProvider.Authorization(
      identityTokenData: Data("h.c.s".utf8), givenName: nil, familyName: nil,
      authorizationCodeData: Data("c0de".utf8), userIdentifier: "001234.abcd", email: "x@privaterelay.appleid.com",
      realUserStatus: AppleProvider.RealUserStatus(rawValue: 2))
    #expect(authorization.authorizationCode == "c0de")
    #expect(authorization.userIdentifier == "001234.abcd")
    #expect(authorization.email == "x@privaterelay.appleid.com")
    #expect(authorization.realUserStatus == .likelyReal)
    #expect(!authorization.description.contains("c0de"))
    #expect(!String(reflecting: authorization).contains("c0de"))
  }

  // MARK: - Revocation and deletion

  @Test(arguments: BackendKind.allCases)
  func deletingWithTheAuthorizationCodeRevokesAppleThenDeletesTheAccount(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let first = try await harness.auth.signIn(with: Harness.appleProvider())
    let code = try #require(first.additionalUserInfo?.authorizationCode)
    try await harness.auth.deleteAccount(revokingAppleAuthorizationCode: code)
    #expect(await harness.shownState() == .signedOut(.userDeleted))
    let again = try await harness.auth.signIn(with: Harness.appleProvider())
    #expect(again.isNewUser, "the account was deleted")
    #expect(again.user.uid != first.user.uid)
    if kind == .scripted {
      #expect(harness.backend.calls.map(\.call).suffix(4).prefix(2) == [.revokeToken, .delete])
    }
    await harness.auth.shutdown()
  }

  @Test(arguments: BackendKind.allCases)
  func aCodeRevokesOnceAndAReusedCodeDeletesNothing(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let result = try await harness.auth.signIn(with: Harness.appleProvider())
    let code = try #require(result.additionalUserInfo?.authorizationCode)
    try await harness.auth.revokeAppleToken(authorizationCode: code)
    let error = try await #require(throws: AuthError.self) {
      try await harness.auth.deleteAccount(revokingAppleAuthorizationCode: code)
    }
    #expect(error.code == .invalidCredential)
    #expect(harness.auth.currentUser?.uid == result.user.uid, "still signed in")
    #expect(try await harness.auth.reload().uid == result.user.uid, "the account is still there")
    await harness.auth.shutdown()
  }

  @Test(arguments: [BackendKind.embedded, .served, .inProcess])
  func anotherAppleAccountsCodeIsRefused(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let tim = try await harness.auth.signIn(with: Harness.appleProvider("tim@example.com"))
    let bobsCode = try Self.apple.authorizationCode(email: "bob@example.com")
    let error = try await #require(throws: AuthError.self) {
      try await harness.auth.deleteAccount(revokingAppleAuthorizationCode: bobsCode)
    }
    #expect(error.code == .invalidCredential)
    #expect(try await harness.auth.reload().uid == tim.user.uid)
    await harness.auth.shutdown()
  }

  @Test(arguments: [BackendKind.embedded, .served, .inProcess])
  func aCodeFromAnotherIssuerOrAnIDTokenIsRefused(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    _ = try await harness.auth.signIn(with: Harness.appleProvider())
    // The same issuer and client, another key.
    let impostor = try EmbeddedIdentityProvider.apple(now: { ManualClock().date })
    for code in [
      try impostor.authorizationCode(email: "tim@example.com"),
      try Self.apple.idToken(email: "tim@example.com"),
      "not-a-code",
    ] {
      let error = try await #require(throws: AuthError.self) {
        try await harness.auth.revokeAppleToken(authorizationCode: code)
      }
      #expect(error.code == .invalidCredential)
    }
    await harness.auth.shutdown()
  }

  @Test(arguments: BackendKind.allCases)
  func anAccountWithoutAppleHasNothingToRevoke(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    try await harness.signUp()
    let error = try await #require(throws: AuthError.self) {
      try await harness.auth.deleteAccount(
        revokingAppleAuthorizationCode: try Self.apple.authorizationCode(email: "ada@example.com"))
    }
    #expect(error.code == .invalidCredential)
    #expect(harness.auth.currentUser != nil)
    await harness.auth.shutdown()
  }

  @Test(arguments: BackendKind.allCases)
  func deletingAfterSigningInWithAppleAgainUsesTheFreshCode(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let first = try await harness.auth.signIn(with: Harness.appleProvider())
    // The first sign-in's code was spent: only the new sheet's code can revoke.
    try await harness.auth.revokeAppleToken(
      authorizationCode: try #require(first.additionalUserInfo?.authorizationCode))
    try await harness.auth.deleteAccount(reauthenticatingWith: Harness.appleProvider())
    #expect(await harness.shownState() == .signedOut(.userDeleted))
    #expect(try await harness.auth.signIn(with: Harness.appleProvider()).isNewUser)
    await harness.auth.shutdown()
  }

  @Test(arguments: BackendKind.allCases)
  func deletingWithAnotherAppleIDChangesNothing(_ kind: BackendKind) async throws {
    let harness = Harness(kind)
    let tim = try await harness.auth.signIn(with: Harness.appleProvider("tim@example.com"))
    let error = try await #require(throws: AuthError.self) {
      try await harness.auth.deleteAccount(reauthenticatingWith: Harness.appleProvider("bob@example.com"))
    }
    #expect(error.code == .userMismatch)
    #expect(try await harness.auth.reload().uid == tim.user.uid)
    await harness.auth.shutdown()
  }

  @Test func deletingWithAProviderThatGivesNoCodeDeletesNothing() async throws {
    let harness = Harness(.embedded)
    _ = try await harness.auth.signIn(with: Harness.appleProvider())
    let noCode = AppleProvider { hashed in
      AppleProvider.Authorization(identityToken: try Self.apple.idToken(email: "tim@example.com", nonce: hashed))
    }
    let error = try await #require(throws: AuthError.self) {
      try await harness.auth.deleteAccount(reauthenticatingWith: noCode)
    }
    #expect(error.code == .misconfigured)
    #expect(harness.auth.currentUser != nil)
    await harness.auth.shutdown()
  }

  // MARK: - Credential state

  /// Apple's answers about a user's credential, and its revocation notices, as a test says.
  final class FakeCredentialState: CredentialStateSource {
    let answer: Locked<Result<ProviderCredentialState, AuthError>>
    let asked = Locked<[String]>([])
    private let notices = Locked<[AsyncStream<Void>.Continuation]>([])
    /// One element each time somebody starts listening for revocations.
    let listening: AsyncStream<Void>
    private let listened: AsyncStream<Void>.Continuation

    /// Whether the answer never comes (Apple does not answer in time): the call waits until
    /// it is cancelled.
    let hangs: Bool

    init(_ state: ProviderCredentialState, hangs: Bool = false) {
      answer = Locked(.success(state))
      self.hangs = hangs
      (listening, listened) = AsyncStream.makeStream(of: Void.self)
    }

    func state(forProviderUserID providerUserID: String) async throws -> ProviderCredentialState {
      asked.withLock { $0.append(providerUserID) }
      if hangs {
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        for await _ in never {}
        throw CancellationError()
      }
      return try answer.withLock { $0 }.get()
    }

    func revocations() -> AsyncStream<Void> {
      let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
      notices.withLock { $0.append(continuation) }
      listened.yield()
      return stream
    }

    /// Apple revokes a credential while the app runs: the state changes, then the notice comes.
    func revoke() {
      answer.withLock { $0 = .success(.revoked) }
      for notice in notices.withLock({ $0 }) { notice.yield() }
    }
  }

  /// A harness with a stored Apple session, and a second `Auth` on the same store for the launch
  /// (with `sources` as its credential-state sources).
  static func storedAppleSession(
    _ kind: BackendKind = .scripted, sources: [ProviderID: any CredentialStateSource] = [:]
  ) async throws -> (Harness, Auth) {
    let harness = Harness(kind)
    _ = try await harness.auth.signIn(with: Harness.appleProvider())
    await harness.auth.shutdown()
    let clock = harness.clock
    var configuration = AuthConfiguration()
    configuration.credentialStateSources = sources
    let launch = Auth(
      backend: harness.backendUnderTest, store: harness.store, clock: clock, configuration: configuration,
      now: { clock.date })
    return (harness, launch)
  }

  /// What Apple says at launch, in the credential-state table.
  enum LaunchAnswer: Sendable, CustomTestStringConvertible {
    case says(ProviderCredentialState)
    case notInTime
    var testDescription: String {
      switch self {
      case .says(let state): "\(state)"
      case .notInTime: "no answer within the restore deadline"
      }
    }
  }

  /// The credential-state table: every state published from launch to settled, for an app that
  /// configured Apple's source and passed no provider. A revoked, unknown or transferred user is
  /// never shown signed in.
  @Test(arguments: [
    (LaunchAnswer.says(.authorized), ["restoring", "signedIn(fresh)"]),
    (.says(.revoked), ["restoring", "signedOut(apple.com sign-in revoked)"]),
    (.says(.notFound), ["restoring", "signedOut(apple.com sign-in revoked)"]),
    (.says(.transferred), ["restoring", "signedOut(apple.com sign-in transferred to another team)"]),
    (.notInTime, ["restoring", "signedIn(fresh)"]),
  ])
  func theCredentialStateIsDecidedBeforeAnythingIsShown(_ answer: LaunchAnswer, _ shown: [String]) async throws {
    let source: FakeCredentialState
    switch answer {
    case .says(let state): source = FakeCredentialState(state)
    case .notInTime: source = FakeCredentialState(.revoked, hangs: true)
    }
    let (harness, launch) = try await Self.storedAppleSession(sources: [.apple: source])
    let states = Recorder.start(launch.states)
    await states.wait { $0.count == 1 }
    let restoring = startTask { try await launch.restorePreviousSignIn() }
    if case .notInTime = answer {
      await harness.clock.sleepers(atLeast: 1)
      harness.clock.advance(by: launch.configuration.restoreDeadline)
    }
    let restored = try await restoring.value
    #expect((restored != nil) == shown.last!.hasPrefix("signedIn"))
    // The stream delivers on its subscriber's task, which may run after the restore returns.
    await states.wait { $0.count >= shown.count }
    #expect(states.values.map(Self.shape) == shown)
    #expect(await launch.hasPreviousSignIn() == (restored != nil), "a refused session is removed from the store")
    #expect(source.asked.withLock { $0 } == [Self.apple.subject(for: "tim@example.com")])
    await launch.shutdown()
    states.cancel()
  }

  /// A state without the user's details, for the table.
  static func shape(_ state: AuthState) -> String {
    switch state {
    case .restoring: "restoring"
    case .signedOut(let reason): "signedOut(\(reason))"
    case .signingIn(let provider): "signingIn(\(provider))"
    case .signedIn(_, let health): "signedIn(\(health))"
    }
  }

  @Test func aRefusedStaleSessionIsNotRefreshedFirst() async throws {
    let source = FakeCredentialState(.revoked)
    let (harness, launch) = try await Self.storedAppleSession(sources: [.apple: source])
    harness.clock.advance(by: .seconds(7200))
    #expect(try await launch.restorePreviousSignIn() == nil)
    #expect(launch.currentState == .signedOut(.credentialRevoked(.apple)))
    #expect(harness.backend.count(of: .refresh) == 0, "the refresh token was not spent")
    await launch.shutdown()
  }

  @Test(arguments: [
    (ProviderCredentialState.revoked, SignOutReason.credentialRevoked(.apple)),
    (.notFound, .credentialRevoked(.apple)),
    (.transferred, .credentialTransferred(.apple)),
  ])
  func aRevokedOrTransferredAppleIDSignsOutAtLaunch(_ state: ProviderCredentialState, _ reason: SignOutReason)
    async throws
  {
    let (_, launch) = try await Self.storedAppleSession()
    let source = FakeCredentialState(state)
    let restored = try await launch.restorePreviousSignIn(alongWith: [Harness.appleProvider(credentialState: source)])
    #expect(restored == nil)
    #expect(launch.currentState == .signedOut(reason))
    #expect(source.asked.withLock { $0 } == [Self.apple.subject(for: "tim@example.com")])
    #expect(!(await launch.hasPreviousSignIn()), "the stored session is cleared")
    await launch.shutdown()
  }

  @Test func anAuthorizedAppleIDKeepsTheSession() async throws {
    let (_, launch) = try await Self.storedAppleSession()
    let restored = try await launch.restorePreviousSignIn(
      alongWith: [Harness.appleProvider(credentialState: FakeCredentialState(.authorized))])
    #expect(restored != nil)
    #expect(launch.currentUser?.uid == restored?.uid)
    await launch.shutdown()
  }

  @Test func aCheckThatFailsKeepsTheSession() async throws {
    let (_, launch) = try await Self.storedAppleSession()
    let source = FakeCredentialState(.revoked)
    source.answer.withLock { $0 = .failure(AuthError(.network, "offline")) }
    #expect(try await launch.restorePreviousSignIn(alongWith: [Harness.appleProvider(credentialState: source)]) != nil)
    #expect(launch.currentUser != nil)
    await launch.shutdown()
  }

  @Test func aPasswordSessionIsKeptWhenItsLinkedAppleIDIsRevoked() async throws {
    let harness = Harness()
    try await harness.signUp()
    _ = try await harness.auth.link(with: Harness.appleProvider())
    await harness.auth.shutdown()
    let clock = harness.clock
    let launch = Auth(backend: harness.backendUnderTest, store: harness.store, clock: clock, now: { clock.date })
    let source = FakeCredentialState(.revoked)
    #expect(try await launch.restorePreviousSignIn(alongWith: [Harness.appleProvider(credentialState: source)]) != nil)
    #expect(source.asked.withLock { $0.isEmpty }, "not asked: the password still vouches for the session")
    #expect(launch.currentUser?.email == "ada@example.com")
    await launch.shutdown()
  }

  @Test func aRevocationWhileTheAppRunsSignsOut() async throws {
    let (_, launch) = try await Self.storedAppleSession(.embedded)
    let source = FakeCredentialState(.authorized)
    let states = Recorder.start(launch.states)
    #expect(try await launch.restorePreviousSignIn(alongWith: [Harness.appleProvider(credentialState: source)]) != nil)
    // The watcher subscribes on its own task; revoke once it listens.
    for await _ in source.listening { break }
    source.revoke()
    await states.wait(for: .signedOut(.credentialRevoked(.apple)))
    #expect(!(await launch.hasPreviousSignIn()))
    await launch.shutdown()
    states.cancel()
  }
}
