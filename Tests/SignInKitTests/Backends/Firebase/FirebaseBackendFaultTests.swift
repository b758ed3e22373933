import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// Broken replies become typed errors and change no state; only the token refresh is retried,
/// and only after transient failures.
@Suite(.timeLimit(.minutes(3)))
struct FirebaseBackendFaultTests {
  static let signIn: [RecordingTransport.Reply] = [
    .status(
      200, #"{"localId":"uid1","email":"ada@example.com","idToken":"ID.1","refreshToken":"R1","expiresIn":"3600"}"#),
    .status(200, #"{"users":[{"localId":"uid1","email":"ada@example.com"}]}"#),
  ]

  struct Fault: Sendable, CustomTestStringConvertible {
    let name: String
    let reply: RecordingTransport.Reply
    let code: AuthError.Code
    var testDescription: String { name }
  }

  static let faults: [Fault] = [
    Fault(name: "truncated body", reply: .status(200, #"{"localId":"uid1","displayName":"Ad"#), code: .invalidResponse),
    Fault(name: "invalid JSON", reply: .status(200, "localId=uid1"), code: .invalidResponse),
    Fault(name: "empty 200", reply: .status(200, ""), code: .invalidResponse),
    Fault(
      name: "HTML 502 page",
      reply: .status(
        502, "<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>",
        headers: ["Content-Type": "text/html"]),
      code: .unavailable),
    Fault(name: "HTML 404 page", reply: .status(404, "<html>Not Found</html>"), code: .invalidResponse),
    Fault(name: "bare 503", reply: .status(503, ""), code: .unavailable),
    Fault(name: "timeout", reply: .failure(AuthError(.timeout, "no answer")), code: .timeout),
    Fault(name: "connection refused", reply: .failure(AuthError(.network, "refused")), code: .network),
  ]

  /// `expiresIn` values that would trap in `Duration.seconds(_:)` or schedule nonsense.
  static let unusableLifetimes = [#""1e300""#, #""nan""#, #""-inf""#, "-1", "0", #""31622401""#, "1e300"]

  static func shownState(_ auth: Auth) async -> AuthState {
    let store = auth.stateStore
    return await UIStateActor.run { store.state }
  }

  @Test(arguments: faults) func aFaultDuringSignInLeavesTheUserSignedOut(_ fault: Fault) async throws {
    let transport = RecordingTransport([fault.reply])
    let store = InMemorySessionStore()
    let auth = Auth(
      backend: try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:]), store: store)
    #expect(await Self.shownState(auth) == .restoring)
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.signIn(email: "ada@example.com", password: "pw-123456")
    }
    #expect(error.code == fault.code, "\(error)")
    // A failed first sign-in settles the launch: signed out, not `restoring` for good.
    #expect(await Self.shownState(auth) == .signedOut(.initial))
    #expect(try store.load() == nil)
    await auth.shutdown()
  }

  @Test(arguments: faults) func aFaultDuringAnAccountChangeKeepsTheSession(_ fault: Fault) async throws {
    let transport = RecordingTransport(Self.signIn + [fault.reply])
    let store = InMemorySessionStore()
    let auth = Auth(
      backend: try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:]), store: store)
    _ = try await auth.signIn(email: "ada@example.com", password: "pw-123456")
    let before = (await Self.shownState(auth), try store.load())
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.updateProfile(displayName: "Ada", photoURL: nil)
    }
    #expect(error.code == fault.code, "\(error)")
    #expect(await Self.shownState(auth) == before.0)
    #expect(try store.load() == before.1)
    #expect(auth.currentUser?.displayName == nil)
    await auth.shutdown()
  }

  @Test(arguments: unusableLifetimes)
  func anUnusableTokenLifetimeIsAnInvalidResponseAndChangesNothing(_ lifetime: String) async throws {
    let transport = RecordingTransport([
      .status(200, #"{"localId":"uid1","idToken":"ID.1","refreshToken":"R1","expiresIn":\#(lifetime)}"#),
      .status(200, #"{"users":[{"localId":"uid1"}]}"#),
    ])
    let store = InMemorySessionStore()
    let auth = Auth(
      backend: try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:]), store: store)
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.signIn(email: "ada@example.com", password: "pw-123456")
    }
    #expect(error.code == .invalidResponse, "\(error)")
    #expect(error.message.contains("expiresIn"))
    #expect(try store.load() == nil)
    await auth.shutdown()

    let refresh = RecordingTransport([
      .status(200, #"{"id_token":"ID.2","refresh_token":"R2","user_id":"uid1","expires_in":\#(lifetime)}"#)
    ])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: refresh, environment: [:])
    let refreshError = try await #require(throws: AuthError.self) {
      _ = try await backend.refresh(RefreshTokenRequest(refreshToken: "R1"))
    }
    #expect(refreshError.code == .invalidResponse)
    #expect(refresh.requests.count == 1)
  }

  static let refreshed = RecordingTransport.Reply.status(
    200, #"{"access_token":"ID.2","id_token":"ID.2","refresh_token":"R2","expires_in":"3600","user_id":"uid1"}"#)

  @Test func theRefreshIsRetriedWithBackoffAfterTransientFailures() async throws {
    let clock = ManualClock()
    let transport = RecordingTransport([
      .status(503, "<html>busy</html>"), .failure(AuthError(.network, "reset")), Self.refreshed,
    ])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:], clock: clock)
    let refresh = Task { try await backend.refresh(RefreshTokenRequest(refreshToken: "R1")) }
    await clock.sleepers(atLeast: 1)
    #expect(transport.requests.count == 1)
    clock.advance(by: .milliseconds(500))
    await clock.sleepers(atLeast: 1)
    #expect(transport.requests.count == 2)
    clock.advance(by: .seconds(1))
    let response = try await refresh.value
    #expect(response.tokens.idToken == "ID.2")
    #expect(transport.requests.count == 3)
  }

  @Test func theRefreshGivesUpAfterItsAttempts() async throws {
    let clock = ManualClock()
    let transport = RecordingTransport([.status(503, ""), .status(503, ""), .status(503, ""), Self.refreshed])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:], clock: clock)
    let refresh = Task { try await backend.refresh(RefreshTokenRequest(refreshToken: "R1")) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(2))
    let error = try await #require(throws: AuthError.self) { _ = try await refresh.value }
    #expect(error.code == .unavailable)
    #expect(transport.requests.count == 3)
  }

  @Test func aRejectedRefreshIsNotRetried() async throws {
    let transport = RecordingTransport([
      .status(400, #"{"error":{"code":400,"message":"INVALID_REFRESH_TOKEN","status":"INVALID_ARGUMENT"}}"#),
      Self.refreshed,
    ])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:])
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.refresh(RefreshTokenRequest(refreshToken: "R1"))
    }
    #expect(error.code == .invalidRefreshToken)
    #expect(transport.requests.count == 1)
  }

  @Test func callsThatAreNotIdempotentAreNeverRetried() async throws {
    let transport = RecordingTransport([.status(503, ""), Self.signIn[0]])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:])
    await #expect(throws: AuthError.self) { _ = try await backend.signUp(SignUpRequest()) }
    #expect(transport.requests.count == 1)
  }

  @Test func aCancelledCallEndsAsCancelled() async throws {
    let transport = RecordingTransport([.hang])
    let backend = try FirebaseBackend(apiKey: "K", projectID: "p", transport: transport, environment: [:])
    let call = Task { try await backend.lookup(LookupRequest(idToken: "ID.1")) }
    call.cancel()
    let error = try await #require(throws: AuthError.self) { _ = try await call.value }
    #expect(error.code == .cancelled)
  }

  @Test func requestDescriptionsShowNeitherTheKeyNorTheBody() {
    let request = HTTPRequest(
      url: URL(string: "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=AIzaSecret")!,
      body: Data(#"{"password":"hunter2"}"#.utf8))
    #expect(!request.description.contains("AIzaSecret"))
    #expect(!request.description.contains("hunter2"))
    #expect(!String(reflecting: request).contains("hunter2"))
  }
}
