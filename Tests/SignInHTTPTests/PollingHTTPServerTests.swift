import Foundation
import SignInConcurrency
import SignInHTTP
import SignInKitTesting
import SignInTestSupport
import Testing

/// The loopback HTTP/1.1 server under `signin serve`: persistent connections, deadlines, limits
/// and a shutdown that answers what is in flight. Deadlines run on a manual clock the test
/// moves; other waits are for events (a reply, a close, the server's census), each with a
/// generous bound, never for a guessed duration.
@Suite(.timeLimit(.minutes(2)))
struct PollingHTTPServerTests {
  static func echo(_ request: LoopbackSocket.Request) -> PollingHTTPServer.Response {
    PollingHTTPServer.Response(
      status: request.path == "/missing" ? 404 : 200, contentType: "text/plain",
      body: Data("\(request.method) \(request.target) \(request.body.count)".utf8))
  }

  /// The status line of each reply on a connection (a body runs straight into the next reply).
  static func statusLines(_ reply: String) -> [String] {
    reply.components(separatedBy: "HTTP/1.1 ").dropFirst().map { "HTTP/1.1 " + $0.prefix { $0 != "\r\n" } }
  }

  @Test func keepsAConnectionOpenAndAnswersPipelinedRequestsInOrder() async throws {
    let server = try PollingHTTPServer { Self.echo($0) }
    defer { server.stop() }
    let client = try RawHTTPClient(port: server.port)
    client.send(
      "GET /first HTTP/1.1\r\n\r\nPOST /missing HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
        + "GET /last HTTP/1.1\r\nConnection: close\r\n\r\n")
    let reply = await client.replyUntilClosed()
    #expect(Self.statusLines(reply) == ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK"])
    #expect(reply.components(separatedBy: "Connection: keep-alive").count == 3)
    #expect(reply.hasSuffix("Connection: close\r\n\r\nGET /last 0"))
    #expect(reply.contains("POST /missing 3"))
  }

  @Test func anHTTP10RequestIsAnsweredAndClosed() async throws {
    let server = try PollingHTTPServer { Self.echo($0) }
    defer { server.stop() }
    let reply = try await RawHTTPClient.exchange("GET /old HTTP/1.0\r\n\r\n", port: server.port)
    #expect(Self.statusLines(reply) == ["HTTP/1.1 200 OK"])
    #expect(reply.contains("Connection: close"))
  }

  @Test func aThousandIdleConnectionsDoNotStopTheNextClientBeingServed() async throws {
    // 2,000 descriptors in this process: no process may be launched meanwhile (see the gate).
    try await ProcessLaunchGate.shared.holdingManyDescriptors {
      let server = try PollingHTTPServer(clock: ManualClock()) { Self.echo($0) }
      var idle = try (0..<1000).map { _ in try RawHTTPClient(port: server.port) }
      let reply = try await RawHTTPClient.exchange("GET /busy HTTP/1.1\r\nConnection: close\r\n\r\n", port: server.port)
      #expect(Self.statusLines(reply) == ["HTTP/1.1 200 OK"])
      // The idle ones are still open and can still send a request.
      idle[999].send("GET /late HTTP/1.1\r\nConnection: close\r\n\r\n")
      #expect(await idle[999].replyUntilClosed().hasSuffix("GET /late 0"))
      idle.removeAll()
      server.stop()
      await server.stopped()
    }
  }

  @Test func aConnectionBeyondTheLimitGetsA503AndTheServerKeepsServing() async throws {
    var settings = PollingHTTPServer.Settings()
    settings.connectionLimit = 4
    // The clock never moves: idle connections stay as long as the test needs them.
    let server = try PollingHTTPServer(settings: settings, clock: ManualClock()) { Self.echo($0) }
    defer { server.stop() }
    var idle = try (0..<4).map { _ in try RawHTTPClient(port: server.port) }
    let refused = try await RawHTTPClient.exchange("GET / HTTP/1.1\r\n\r\n", port: server.port)
    #expect(Self.statusLines(refused) == ["HTTP/1.1 503 Service Unavailable"])
    #expect(refused.contains("Too many connections"))
    // An idle connection leaves (counted out by the server: see `leave`) and a new client
    // comes, again and again.
    for round in 0..<20 {
      #expect(await idle.removeFirst().leave(requesting: "/bye/\(round)").hasSuffix("GET /bye/\(round) 0"))
      let reply = try await RawHTTPClient.exchange(
        "GET /again/\(round) HTTP/1.1\r\nConnection: close\r\n\r\n", port: server.port)
      #expect(reply.hasSuffix("GET /again/\(round) 0"))
      idle.append(try RawHTTPClient(port: server.port))
    }
    withExtendedLifetime(idle) {}
  }

  @Test func anIdleConnectionIsClosedAtTheDeadlineAndAHalfSentRequestGets408() async throws {
    let clock = ManualClock()
    let server = try PollingHTTPServer(clock: clock) { Self.echo($0) }
    defer { server.stop() }
    let idle = try RawHTTPClient(port: server.port)
    let half = try RawHTTPClient(port: server.port)
    half.send("POST /slow HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
    await server.census { $0.open == 2 && $0.partialRequests == 1 }
    // One second short of the 10 s deadline nothing happens; at it, both are dealt with.
    clock.advance(by: .seconds(9))
    #expect(server.census.open == 2)
    clock.advance(by: .seconds(1))
    #expect(await idle.replyUntilClosed() == "")
    let timedOut = await half.replyUntilClosed()
    #expect(Self.statusLines(timedOut) == ["HTTP/1.1 408 Request Timeout"])
    let reply = try await RawHTTPClient.exchange("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(Self.statusLines(reply) == ["HTTP/1.1 200 OK"])
  }

  // Item 13 of the third hardening: a reply has a write deadline.

  /// A server on `clock` whose replies are 64 MiB, far more than the socket buffers hold.
  static func largeReplies(clock: ManualClock) throws -> PollingHTTPServer {
    let body = Data(count: 64 << 20)
    return try PollingHTTPServer(clock: clock) { _ in
      PollingHTTPServer.Response(status: 200, contentType: "application/octet-stream", body: body)
    }
  }

  @Test func aClientThatNeverReadsItsReplyIsResetAtTheWriteDeadline() async throws {
    let clock = ManualClock()
    let server = try Self.largeReplies(clock: clock)
    defer { server.stop() }
    let stuck = try RawHTTPClient(port: server.port)
    stuck.send("GET /large HTTP/1.1\r\n\r\n")
    #expect(await stuck.replyStartedWithoutReading())
    clock.advance(by: .seconds(30))
    // Without reading a byte, the client sees the server give up on it.
    #expect(await stuck.resetWithoutReading(), "the server still holds the connection")
    // And the server serves others meanwhile and after.
    let reply = try await RawHTTPClient.exchange("GET /small HTTP/1.1\r\nConnection: close\r\n\r\n", port: server.port)
    #expect(Self.statusLines(reply) == ["HTTP/1.1 200 OK"])
  }

  @Test func aClientThatNeverReadsCannotHoldAShutdown() async throws {
    let clock = ManualClock()
    let server = try Self.largeReplies(clock: clock)
    let stuck = try RawHTTPClient(port: server.port)
    stuck.send("GET /large HTTP/1.1\r\n\r\n")
    // The reply is being written when the server is asked to stop.
    #expect(await stuck.replyStartedWithoutReading())
    server.stop()
    let stopped = Task { await server.stopped() }
    clock.advance(by: .seconds(30))
    // Returns once the stuck reply's deadline passes (the suite's time limit would catch a hang).
    await stopped.value
    withExtendedLifetime(stuck) {}
  }

  // Item 14: the descriptor limit.

  @Test(arguments: [
    (1024, 20_000, 1024), (1024, 256, 192), (1024, 64, 48), (1024, 8, 6), (1024, 1, 1), (4, 256, 4),
  ])
  func theConnectionLimitLeavesRoomInTheDescriptorLimit(_ requested: Int, _ descriptors: Int, _ expected: Int) {
    #expect(PollingHTTPServer.effectiveConnectionLimit(requested, descriptorLimit: descriptors) == expected)
  }

  @Test func aFailedAcceptPausesAcceptingInsteadOfSpinning() {
    let start = ContinuousClock.now
    var pause = AcceptPause<ContinuousClock.Instant>()
    #expect(!pause.isPaused(at: start))
    pause.failed(at: start, for: .milliseconds(100))
    #expect(pause.isPaused(at: start.advanced(by: .milliseconds(99))))
    #expect(pause.resumesAt == start.advanced(by: .milliseconds(100)))
    pause.expire(at: start.advanced(by: .milliseconds(100)))
    #expect(!pause.isPaused(at: start.advanced(by: .milliseconds(100))))
    #expect(pause.resumesAt == nil)
  }

  @Test func aRejectedRequestGetsItsStatusAndTheConnectionCloses() async throws {
    var settings = PollingHTTPServer.Settings()
    settings.limits = HTTPRequestParser.Limits(bodyBytes: 16)
    let server = try PollingHTTPServer(settings: settings) { Self.echo($0) }
    defer { server.stop() }
    let tooLarge = try await RawHTTPClient.exchange(
      "POST / HTTP/1.1\r\nContent-Length: 10485760\r\n\r\n", port: server.port)
    #expect(Self.statusLines(tooLarge) == ["HTTP/1.1 413 Content Too Large"])
    let chunked = try await RawHTTPClient.exchange(
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", port: server.port)
    #expect(Self.statusLines(chunked) == ["HTTP/1.1 501 Not Implemented"])
  }

  @Test func shutDownAnswersTheRequestInFlightClosesIdleOnesAndStopsListening() async throws {
    let gate = Gate()
    let server = try PollingHTTPServer { request in
      await gate.arriveAndWait()
      return Self.echo(request)
    }
    let port = server.port
    let idle = try RawHTTPClient(port: port)
    let busy = try RawHTTPClient(port: port)
    busy.send("POST /work HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi")
    await gate.waitForArrival()
    server.stop()
    #expect(await idle.replyUntilClosed() == "")
    let stopped = Task { await server.stopped() }
    gate.open()
    let reply = await busy.replyUntilClosed()
    #expect(Self.statusLines(reply) == ["HTTP/1.1 200 OK"])
    #expect(reply.contains("Connection: close") && reply.hasSuffix("POST /work 2"))
    await stopped.value
    #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
  }
}

/// A handler that parks until the test opens it, and tells the test when it has arrived.
final class Gate: Sendable {
  private struct State {
    var arrived = false
    var isOpen = false
    var waiters = ConditionWaiters<(arrived: Bool, isOpen: Bool)>()
  }

  private let state = Locked(State())

  func arriveAndWait() async {
    let ready = state.withLock { state in
      state.arrived = true
      return state.waiters.takeSatisfied(by: (state.arrived, state.isOpen))
    }
    for waiter in ready { waiter.resume() }
    await state.wait(on: \.waiters, observing: { ($0.arrived, $0.isOpen) }, until: { $0.isOpen })
  }

  func waitForArrival() async {
    await state.wait(on: \.waiters, observing: { ($0.arrived, $0.isOpen) }, until: { $0.arrived })
  }

  func open() {
    let ready = state.withLock { state in
      state.isOpen = true
      return state.waiters.takeSatisfied(by: (state.arrived, state.isOpen))
    }
    for waiter in ready { waiter.resume() }
  }
}
