import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// `FirebaseBackend` in emulator mode over real HTTP on 127.0.0.1, with `URLSessionTransport`:
/// URL formation, headers and bodies as a server sees them, and the transport's faults.
@Suite(.timeLimit(.minutes(3)))
struct FirebaseBackendOverHTTPTests {
  /// Canned emulator replies for one email/password user.
  static func emulatorReplies(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply? {
    let path = request.target.split(separator: "?").first.map(String.init) ?? ""
    let account = #""localId":"uid1","email":"ada@example.com""#
    switch path {
    case "/identitytoolkit.googleapis.com/v1/accounts:signUp":
      return .init(status: 200, body: #"{\#(account),"idToken":"E2E.ID.1","refreshToken":"E2E+R1","expiresIn":"3600"}"#)
    case "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword":
      return .init(
        status: 200,
        body: #"{\#(account),"registered":true,"idToken":"E2E.ID.2","refreshToken":"E2E+R1","expiresIn":"3600"}"#)
    case "/identitytoolkit.googleapis.com/v1/accounts:lookup":
      return .init(
        status: 200,
        body:
          #"{"users":[{\#(account),"emailVerified":false,"createdAt":"1700000000000","providerUserInfo":[{"providerId":"password","rawId":"ada@example.com"}]}]}"#
      )
    case "/securetoken.googleapis.com/v1/token":
      return .init(
        status: 200,
        body:
          #"{"access_token":"E2E.ID.3","id_token":"E2E.ID.3","refresh_token":"E2E+R2","expires_in":"3600","token_type":"Bearer","user_id":"uid1","project_id":"12345"}"#
      )
    default:
      return .init(status: 400, body: #"{"error":{"code":400,"message":"UNKNOWN_PATH : \#(path)"}}"#)
    }
  }

  @Test func authSignsUpSignsInRefreshesAndSignsOutThroughTheEmulatorURLs() async throws {
    let server = try LoopbackHTTPServer(handler: Self.emulatorReplies)
    defer { server.stop() }
    let backend = try FirebaseBackend.emulator(host: server.host, projectID: "demo-project")
    let auth = Auth(backend: backend, store: InMemorySessionStore())

    let signedUp = try await auth.signUp(email: "ada@example.com", password: "pw-123456")
    #expect(signedUp.user.uid == "uid1")
    try await auth.signOut()
    let signedIn = try await auth.signIn(email: "ada@example.com", password: "pw-123456")
    #expect(signedIn.user.email == "ada@example.com")
    #expect(try await auth.idToken() == "E2E.ID.2")
    #expect(try await auth.idToken(forceRefresh: true) == "E2E.ID.3")
    try await auth.signOut()
    #expect(auth.currentUser == nil)
    await auth.shutdown()

    let requests = server.requests
    #expect(
      requests.map(\.target) == [
        "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key",
        "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key",
        "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key",
        "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key",
        "/securetoken.googleapis.com/v1/token?key=fake-api-key",
      ])
    #expect(requests.allSatisfy { $0.method == "POST" })
    #expect(requests.allSatisfy { $0.headers["x-client-version"] == FirebaseBackend.clientVersion })
    #expect(requests[0].headers["content-type"] == "application/json")
    let signUpBody = try JSONSerialization.jsonObject(with: requests[0].body) as? [String: Any]
    #expect(signUpBody?["email"] as? String == "ada@example.com")
    #expect(signUpBody?["returnSecureToken"] as? Bool == true)
    #expect(requests[4].headers["content-type"] == "application/x-www-form-urlencoded")
    #expect(String(decoding: requests[4].body, as: UTF8.self) == "grant_type=refresh_token&refresh_token=E2E%2BR1")
  }

  /// An `Auth` whose requests time out after `timeout`, signed in as ada over `server`, and its
  /// store. The sign-in itself runs with 30 s, so a busy machine cannot time it out; the session
  /// is then restored (its token is fresh: no request) into an `Auth` on the `timeout` backend.
  static func signedIn(over server: LoopbackHTTPServer, timeout: Duration = .seconds(30)) async throws
    -> (Auth, InMemorySessionStore)
  {
    let store = InMemorySessionStore()
    var backend = try FirebaseBackend.emulator(host: server.host, projectID: "demo-project")
    backend.requestTimeout = .seconds(30)
    let signingIn = Auth(backend: backend, store: store)
    _ = try await signingIn.signIn(email: "ada@example.com", password: "pw-123456")
    await signingIn.shutdown()
    backend.requestTimeout = timeout
    let auth = Auth(backend: backend, store: store)
    _ = try #require(try await auth.restorePreviousSignIn())
    return (auth, store)
  }

  static func shownState(_ auth: Auth) async -> AuthState {
    let store = auth.stateStore
    return await UIStateActor.run { store.state }
  }

  @Test func aTimeoutIsATypedErrorAndChangesNothing() async throws {
    let server = try LoopbackHTTPServer { request in
      request.target.contains("accounts:update") ? nil : Self.emulatorReplies(request)
    }
    defer { server.stop() }
    let (auth, store) = try await Self.signedIn(over: server, timeout: .seconds(1))
    let before = (await Self.shownState(auth), try store.load())
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.updateProfile(displayName: "Ada", photoURL: nil)
    }
    #expect(error.code == .timeout, "\(error)")
    #expect(await Self.shownState(auth) == before.0)
    #expect(try store.load() == before.1)
    await auth.shutdown()
  }

  @Test func aRefusedConnectionIsANetworkErrorAndChangesNothing() async throws {
    let server = try LoopbackHTTPServer(handler: Self.emulatorReplies)
    let (auth, store) = try await Self.signedIn(over: server)
    server.stop()
    let before = (await Self.shownState(auth), try store.load())
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.updateProfile(displayName: "Ada", photoURL: nil)
    }
    #expect(error.code == .network)
    #expect(error.message.contains("connect"))
    #expect(await Self.shownState(auth) == before.0)
    #expect(try store.load() == before.1)
    await auth.shutdown()
  }

  /// A server that answers the profile update as `delivery` breaks it, and everything else whole.
  static func breakingTheUpdate(_ delivery: LoopbackHTTPServer.Delivery) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      guard request.target.contains("accounts:update") else { return Self.emulatorReplies(request) }
      return .init(
        status: 200, body: #"{"localId":"uid1","email":"ada@example.com","displayName":"Ada Lovelace"}"#,
        delivery: delivery)
    }
  }

  /// Runs a profile update that `server` breaks; returns its error after checking that neither
  /// the shown state nor the stored session moved.
  static func failedUpdate(over server: LoopbackHTTPServer, timeout: Duration = .seconds(30)) async throws -> AuthError
  {
    let (auth, store) = try await Self.signedIn(over: server, timeout: timeout)
    let before = (await Self.shownState(auth), try store.load())
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.updateProfile(displayName: "Ada Lovelace", photoURL: nil)
    }
    #expect(await Self.shownState(auth) == before.0)
    #expect(try store.load() == before.1)
    await auth.shutdown()
    return error
  }

  @Test func aResetConnectionIsANetworkErrorAndChangesNothing() async throws {
    let server = try Self.breakingTheUpdate(.reset)
    defer { server.stop() }
    let error = try await Self.failedUpdate(over: server)
    #expect(error.code == .network, "\(error)")
  }

  @Test func aBodyCutShortOfItsLengthIsATypedErrorAndChangesNothing() async throws {
    let server = try Self.breakingTheUpdate(.truncated(bytes: 20))
    defer { server.stop() }
    let error = try await Self.failedUpdate(over: server)
    #expect(error.code == .network, "\(error)")
  }

  @Test func aBodyThatStallsHalfwayTimesOutAndChangesNothing() async throws {
    let server = try Self.breakingTheUpdate(.stalled(bytes: 20))
    defer { server.stop() }
    let error = try await Self.failedUpdate(over: server, timeout: .seconds(1))
    #expect(error.code == .timeout, "\(error)")
  }

  @Test func aSlowButCompleteReplyStillSignsIn() async throws {
    // Every reply arrives 16 bytes at a time, 5 ms apart: slow, within the timeout, complete.
    let server = try LoopbackHTTPServer { request in
      var reply = Self.emulatorReplies(request)
      reply?.delivery = .trickled(bytes: 16, pause: .milliseconds(5))
      return reply
    }
    defer { server.stop() }
    let (auth, store) = try await Self.signedIn(over: server)
    #expect(auth.currentUser?.email == "ada@example.com")
    #expect(try store.load()?.refreshToken == "E2E+R1")
    await auth.shutdown()
  }

  @Test func cancellingTheCallerCancelsTheRequest() async throws {
    let server = try LoopbackHTTPServer { _ in nil }
    defer { server.stop() }
    let backend = try FirebaseBackend.emulator(host: server.host, projectID: "demo-project")
    let call = Task {
      try await backend.signInWithPassword(PasswordSignInRequest(email: "a@b.co", password: "pw-123456"))
    }
    await server.nextArrival()
    call.cancel()
    let error = try await #require(throws: AuthError.self) { _ = try await call.value }
    #expect(error.code == .cancelled)
  }
}
