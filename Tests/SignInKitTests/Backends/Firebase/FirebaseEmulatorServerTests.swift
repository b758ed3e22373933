import Foundation
import SignInEmulator
import SignInKitEmbedded
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// The embedded backend served as a Firebase Auth emulator: real clients over loopback, and the
/// bad input a local port receives.
@Suite(.timeLimit(.minutes(2)))
struct FirebaseEmulatorServerTests {
  static func served() throws -> (EmbeddedBackend, FirebaseEmulatorServer) {
    let backend = try EmbeddedBackend(
      directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
    // A clock that never moves: no connection is closed by a deadline while a test uses it.
    return (backend, try FirebaseEmulatorServer(backend: backend, port: 0, clock: ManualClock()))
  }

  @Test func answersReadinessAndTheClientAPIAsTheEmulatorDoes() async throws {
    let (_, server) = try Self.served()
    defer { server.stop() }
    let ready = try await RawHTTPClient.exchange(
      "GET / HTTP/1.1\r\nConnection: close\r\nHost: 127.0.0.1\r\n\r\n", port: server.port)
    #expect(ready.hasPrefix("HTTP/1.1 200 "))
    #expect(ready.contains(#""ready":true"#))

    let firebase = try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local")
    let auth = Auth(backend: firebase, store: InMemorySessionStore())
    let result = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    #expect(result.isNewUser)
    _ = try await auth.idToken(forceRefresh: true)
    try await auth.signOut()
    await #expect(throws: AuthError.self) {
      try await auth.signIn(email: "ada@example.com", password: "wrong horse")
    }
    let again = try await auth.signIn(email: "ada@example.com", password: "correct horse")
    #expect(again.user.uid == result.user.uid)
    await auth.shutdown()
  }

  @Test func aBrowserPreflightIsAnsweredOnTheWireAndAForeignHostIsNot() async throws {
    let (_, server) = try Self.served()
    defer { server.stop() }
    let preflight = try await RawHTTPClient.exchange(
      "OPTIONS /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
        + "Origin: http://localhost:5173\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n",
      port: server.port)
    #expect(preflight.hasPrefix("HTTP/1.1 204 No Content\r\n"))
    #expect(preflight.contains("\r\nAccess-Control-Allow-Origin: http://localhost:5173\r\n"))
    let rebound = try await RawHTTPClient.exchange(
      "GET /emulator/v1/projects/signinkit-local/oobCodes HTTP/1.1\r\nHost: rebind.attacker.example\r\n"
        + "Connection: close\r\n\r\n",
      port: server.port)
    #expect(rebound.hasPrefix("HTTP/1.1 421 Misdirected Request\r\n"))
  }

  @Test func aProviderSignInTravelsAsFirebasesPostBody() async throws {
    let google = try EmbeddedIdentityProvider.google()
    let backend = try EmbeddedBackend(directory: nil, configuration: .init(trusting: [google]))
    let server = try FirebaseEmulatorServer(backend: backend, port: 0)
    defer { server.stop() }
    let firebase = try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local")
    let token = try google.idToken(email: "grace@example.com", name: "Grace Hopper")
    let first = try await firebase.signInWithIdp(
      IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: token)))
    #expect(first.isNewUser)
    #expect(first.email == "grace@example.com")
    let second = try await firebase.signInWithIdp(
      IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: token)))
    #expect(!second.isNewUser && second.localID == first.localID)
    let account = try await firebase.lookup(LookupRequest(idToken: second.tokens.idToken))
    #expect(account.providers.map(\.providerID) == [.google])
  }

  @Test(arguments: [
    (
      "GET /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "405 "
    ),
    ("POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}", "404 "),
    (
      "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 5\r\n\r\nnot{}",
      "400 "
    ),
    (
      "POST /identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
      "400 "
    ),
    (
      "POST /securetoken.googleapis.com/v1/token?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 9\r\n\r\ngrant_typ",
      "400 "
    ),
    (
      "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 10485760\r\n\r\n",
      "413 "
    ),
    ("BREW /coffee HTCPCP/1.0\r\n\r\n", "400 "),
    // RFC 9112 §3.2: HTTP/1.1 must name its Host (review N13).
    ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", "400 "),
    ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "501 "),
    (
      "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + "Content-Type: application/xml\r\nContent-Length: 4\r\n\r\n<a/>", "400 "
    ),
    (
      "DELETE /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "405 "
    ),
  ])
  func badRequestsGetAnErrorAndTheServerKeepsServing(_ request: String, _ status: String) async throws {
    let (_, server) = try Self.served()
    defer { server.stop() }
    let reply = try await RawHTTPClient.exchange(request, port: server.port)
    #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(reply.prefix(200))")
    if reply.contains("application/json") {
      #expect(reply.contains(#""error":{"#))
    }
    let ready = try await RawHTTPClient.exchange(
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(ready.hasPrefix("HTTP/1.1 200 "))
  }

  @Test func anHTTP10RequestMayLeaveOutItsHost() async throws {
    let (_, server) = try Self.served()
    defer { server.stop() }
    let reply = try await RawHTTPClient.exchange("GET / HTTP/1.0\r\n\r\n", port: server.port)
    #expect(reply.hasPrefix("HTTP/1.1 200 "), "\(reply.prefix(200))")
  }

  @Test func firebaseErrorStringsComeBackInTheEnvelope() async throws {
    let (_, server) = try Self.served()
    defer { server.stop() }
    let firebase = try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local")
    _ = try await firebase.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let taken = try await #require(throws: AuthError.self) {
      try await firebase.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    }
    #expect(taken.code == .emailAlreadyInUse)
    #expect(taken.serverMessage == "EMAIL_EXISTS")
    let expired = try await #require(throws: AuthError.self) {
      try await firebase.lookup(LookupRequest(idToken: "not.a.token"))
    }
    #expect(expired.serverMessage == "INVALID_ID_TOKEN")
  }

  @Test func aThousandIdleAndAHalfSentConnectionDoNotStopOthersBeingServed() async throws {
    // 2,000 descriptors in this process: no process may be launched meanwhile (see the gate).
    try await ProcessLaunchGate.shared.holdingManyDescriptors {
      let clock = ManualClock()
      let backend = try EmbeddedBackend(
        directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
      let server = try FirebaseEmulatorServer(backend: backend, port: 0, clock: clock)
      var idle = try (0..<1000).map { _ in try RawHTTPClient(port: server.port) }
      let half = try RawHTTPClient(port: server.port)
      half.send(
        "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 100\r\n\r\n{"
      )
      let firebase = try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local")
      let user = try await firebase.signUp(SignUpRequest())
      #expect(!user.localID.isEmpty)
      idle.removeAll()
      await server.census { $0.partialRequests == 1 }
      // The half-sent request holds the shutdown until its deadline, which the test brings.
      let stopped = Task { await server.shutDown() }
      clock.advance(by: .seconds(10))
      #expect(await half.replyUntilClosed().hasPrefix("HTTP/1.1 408 "))
      await stopped.value
    }
  }

  @Test func twoClientsShareOneBackend() async throws {
    let (_, server) = try Self.served()
    defer { server.stop() }
    let one = Auth(
      backend: try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local"),
      store: InMemorySessionStore())
    let other = Auth(
      backend: try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local"),
      store: InMemorySessionStore())
    let created = try await one.signUp(email: "ada@example.com", password: "correct horse")
    let seen = try await other.signIn(email: "ada@example.com", password: "correct horse")
    #expect(seen.user.uid == created.user.uid)
    _ = try await one.updateProfile(displayName: "Ada", photoURL: nil)
    #expect(try await other.reload().displayName == "Ada")
    await one.shutdown()
    await other.shutdown()
  }

  @Test func aConnectionBeyondTheLimitGetsFirebasesEnvelopeAndNothingIsLost() async throws {
    let backend = try EmbeddedBackend(
      directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
    // A clock that never moves, so that no idle connection is closed by a deadline first.
    let server = try FirebaseEmulatorServer(backend: backend, port: 0, connectionLimit: 2, clock: ManualClock())
    defer { server.stop() }
    let firebase = try FirebaseBackend.emulator(host: server.host, projectID: "signinkit-local")
    let created = try await firebase.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let idle = try (0..<2).map { _ in try RawHTTPClient(port: server.port) }
    let refused = try await RawHTTPClient.exchange("GET / HTTP/1.1\r\n\r\n", port: server.port)
    #expect(refused.hasPrefix("HTTP/1.1 503 "))
    #expect(refused.contains(#""message":"UNAVAILABLE : 2 connections are open"#))
    // The idle connections leave, counted out by the server before the sign-in connects.
    for client in idle { await client.leave() }
    let again = try await firebase.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    #expect(again.localID == created.localID)
  }
}
