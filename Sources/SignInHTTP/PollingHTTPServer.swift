import Foundation
import SignInConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one HTTP/1.1 server on 127.0.0.1 in SignInKit: under `signin serve`, the OAuth loopback
/// redirect listener and the test server. A handler answers each request; the connection rules
/// (deadlines, limits, keep-alive, refusals) are ``HTTPConnectionStateMachine``'s, and time is
/// the injected clock's, so a test moves deadlines with a manual clock instead of waiting.
///
/// One thread polls the listening socket and every connection, so an idle or slow client costs
/// a descriptor and a parser, never a thread: a thousand idle connections do not stop the next
/// client being served. Each complete request is answered by `handle` in a task of its own, at
/// most ``Settings/concurrentRequests`` at once (more wait their turn, in order), and the reply
/// is written by the polling thread without blocking, so a client that stops reading holds up
/// only itself.
///
/// - Requests are read with ``HTTPRequestParser`` (fuzzed), within its limits; a rejection is
///   answered with ``Settings/rejected`` and the connection closed.
/// - A connection is kept open after a reply (pipelined bytes included) unless the client asked
///   to close it. Each request must arrive within ``Settings/readDeadline`` of the connection
///   becoming ready for it; past that, a half-sent request gets a 408 and an idle connection
///   is closed.
/// - Each reply must drain within ``Settings/writeDeadline``: a client that asks for replies
///   and never reads them is reset and its reply's memory freed, so it cannot hold a place (or
///   ``stopped()``) for good.
/// - Beyond ``Settings/connectionLimit`` open connections, a new one gets
///   ``Settings/overloaded`` and is closed. The limit never exceeds what the process's descriptor
///   limit leaves room for (``effectiveConnectionLimit(_:descriptorLimit:)``), and a failing
///   `accept` (no descriptor left after all) pauses accepting briefly instead of spinning.
/// - ``stop()`` stops accepting and closes the connections that have no request in flight (and
///   those held open); requests in flight are answered and their connections closed.
///   ``stopped()`` waits for that.
///
/// - Concurrency: `Sendable`. The polling thread owns every connection; `handle` runs in tasks
///   on the server's own threads (an ``OwnThreadsExecutor``, one per core, so a client that keeps
///   the shared pool busy in the same process cannot starve it) and may run concurrently with
///   itself. Deadlines are kept by a task on those threads that sleeps on the clock and wakes the
///   polling thread.
package final class PollingHTTPServer: Sendable {
  /// A reply to write.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Response: Sendable {
    package var status: Int
    package var contentType: String
    package var body: Data
    /// Headers beyond Content-Type, Content-Length, Cache-Control and Connection.
    package var headers: [(name: String, value: String)]
    /// How it goes out on the wire; ``Delivery/whole`` but in tests of broken networks.
    package var delivery: Delivery

    package init(
      status: Int, contentType: String, body: Data, headers: [(name: String, value: String)] = [],
      delivery: Delivery = .whole
    ) {
      self.status = status
      self.contentType = contentType
      self.body = body
      self.headers = headers
      self.delivery = delivery
    }
  }

  /// How a reply goes out on the wire: whole, or broken the ways networks break it.
  ///
  /// - Concurrency: `Sendable` value.
  package enum Delivery: Sendable, Equatable {
    /// Headers and body at once; then the next request, or an orderly close.
    case whole
    /// Headers announcing the whole body, then only its first `bytes`, then an orderly close.
    case truncated(bytes: Int)
    /// A TCP reset as soon as the request is read: no status line at all.
    case reset
    /// The body in chunks of `bytes`, each after a pause of `pause` on the server's clock:
    /// slow, but complete.
    case trickled(bytes: Int, pause: Duration)
    /// Headers and the first `bytes` of the body, then silence on an open connection until the
    /// server stops.
    case stalled(bytes: Int)
  }

  /// Limits and the wording of the replies the server makes itself.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Settings: Sendable {
    package var connectionLimit = 1024
    package var concurrentRequests = 64
    package var limits = HTTPRequestParser.Limits()
    package var readDeadline: Duration = .seconds(10)
    /// How long a reply's bytes may take to drain.
    package var writeDeadline: Duration = .seconds(30)
    /// Whether a connection stays open for the next request after a reply (HTTP/1.1's
    /// default); `false` closes each after its reply, as a one-shot server does.
    package var keepsAlive = true
    /// How long accepting pauses after `accept` fails for want of descriptors or memory.
    package var acceptPause: Duration = .milliseconds(100)
    /// The reply to a request the parser refused, or one that did not arrive in time (408).
    package var rejected: @Sendable (HTTPRequestParser.Rejection) -> Response = { rejection in
      Response(
        status: rejection.status, contentType: "text/plain; charset=utf-8", body: Data((rejection.reason + "\n").utf8))
    }
    /// The reply to a connection beyond ``connectionLimit``.
    package var overloaded: @Sendable () -> Response = {
      Response(
        status: 503, contentType: "text/plain; charset=utf-8",
        body: Data("Too many connections are open; close some and retry.\n".utf8))
    }

    package init() {}
  }

  package let port: UInt16
  private let mailbox: Mailbox

  /// Listens on 127.0.0.1:`port` (0 picks a free one; read it back from ``port``) and serves
  /// until ``stop()``.
  ///
  /// - Parameter clock: keeps the deadlines and pauses.
  /// - Throws: ``SocketError`` when the port cannot be bound or the server cannot start.
  package convenience init(
    port: UInt16 = 0, settings: Settings = Settings(), clock: any Clock<Duration> = ContinuousClock(),
    handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response?
  ) throws {
    try self.init(socket: try LoopbackSocket.listen(port: port), settings: settings, clock: clock, handle: handle)
  }

  /// Serves on `socket`, already listening (so a caller can learn its port first), until
  /// ``stop()``. A handler that answers `nil` holds the connection open without a reply until
  /// the server stops (what a hung backend looks like to a client).
  ///
  /// - Throws: ``SocketError`` when the server cannot start; `socket` is then closed.
  package init(
    socket: LoopbackSocket, settings: Settings = Settings(), clock: any Clock<Duration> = ContinuousClock(),
    handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response?
  ) throws {
    var limited = settings
    limited.connectionLimit = Self.effectiveConnectionLimit(
      settings.connectionLimit, descriptorLimit: SocketCalls.descriptorLimit())
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      socket.close()
      throw SocketError(message: "Could not make the server's wake-up pipe (\(String(cString: strerror(errno))))")
    }
    for descriptor in [socket.descriptor] + ends { Self.setNonBlocking(descriptor) }
    self.port = socket.port
    mailbox = Mailbox(wakeWrite: ends[1])
    Self.start(socket: socket, wakeRead: ends[0], mailbox: mailbox, settings: limited, clock: clock, handle: handle)
  }

  /// Starts the polling thread with the clock's own type, so instants can be kept.
  private static func start<C: Clock<Duration>>(
    socket: LoopbackSocket, wakeRead: Int32, mailbox: Mailbox, settings: Settings, clock: C,
    handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response?
  ) {
    // The loop is made on its thread and never leaves it.
    Thread.detachNewThread {
      EventLoop(socket: socket, wakeRead: wakeRead, mailbox: mailbox, settings: settings, clock: clock, handle: handle)
        .run()
    }
  }

  /// Stops accepting, closes the connections with no request in flight, and lets the requests
  /// in flight finish. Returns at once; ``stopped()`` waits. Calling it again does nothing.
  package func stop() { mailbox.post { $0.stopRequested = true } }

  /// Suspends until the server has stopped: every request in flight answered and every
  /// connection closed. Returns at once when the calling task is cancelled.
  package func stopped() async {
    await mailbox.state.wait(on: \.stoppedWaiters, observing: \.isStopped) { $0 }
  }

  /// What the polling thread last counted: the connections open, and those with part of a
  /// request read.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Census: Sendable, Equatable {
    package var open = 0
    package var partialRequests = 0
  }

  /// The census after the polling thread's last round.
  package var census: Census { mailbox.state.withLock { $0.census } }

  /// Suspends until the census satisfies `condition` (an empty one once the server stopped):
  /// for a test that must know what the server has read or counted out before it moves the
  /// clock. Returns early when the calling task is cancelled.
  package func census(until condition: @escaping @Sendable (Census) -> Bool) async {
    await mailbox.state.wait(on: \.censusWaiters, observing: \.census, until: condition)
  }

  deinit { stop() }

  /// The connection limit a process with `descriptorLimit` descriptors can keep: `requested`,
  /// but at most the descriptor limit less a reserve (a quarter, at most 64) for the listening
  /// socket, the wake-up pipe, files and whatever else the process opens; at least one.
  package static func effectiveConnectionLimit(_ requested: Int, descriptorLimit: Int) -> Int {
    let reserve = min(64, descriptorLimit / 4)
    return max(1, min(requested, descriptorLimit - reserve))
  }

  static func setNonBlocking(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  }

  // MARK: - Between the tasks and the polling thread

  /// What tasks hand to the polling thread, and what it reports back.
  ///
  /// - Concurrency: `Sendable`; ``Locked``-guarded, plus a pipe that wakes the polling thread.
  final class Mailbox: Sendable {
    struct State: Sendable {
      var replies: [(connection: Int, response: Response?)] = []
      var stopRequested = false
      var isStopped = false
      var stoppedWaiters = ConditionWaiters<Bool>()
      var census = Census()
      var censusWaiters = ConditionWaiters<Census>()
      /// The timer's task has woken the thread: its deadline came.
      var timerFired = false
    }

    let state = Locked(State())
    let wakeWrite: Int32

    init(wakeWrite: Int32) { self.wakeWrite = wakeWrite }

    /// Changes the state and wakes the polling thread (a full pipe means it is awake already).
    /// The pipe is written under the lock: once the thread has marked the server stopped it
    /// closes the pipe, and no one writes to it after that.
    func post(_ change: (inout State) -> Void) {
      state.withLock { state in
        change(&state)
        guard !state.isStopped else { return }
        var byte: UInt8 = 1
        _ = systemWrite(wakeWrite, &byte, 1)
      }
    }

    /// Wakes the polling thread for a deadline that came.
    func timerFired() { post { $0.timerFired = true } }

    /// Records the census, and resumes the tests waiting on it.
    func report(_ census: Census) {
      let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
        guard state.census != census else { return [] }
        state.census = census
        return state.censusWaiters.takeSatisfied(by: census)
      }
      for waiter in due { waiter.resume() }
    }
  }
}

/// The polling thread's world: every connection's socket and state machine, and the timer that
/// wakes it for the nearest deadline. It is made on that thread and only that thread touches it.
private final class EventLoop<C: Clock<Duration>> {
  typealias Response = PollingHTTPServer.Response
  typealias Machine = HTTPConnectionStateMachine<C.Instant>

  final class Connection {
    let descriptor: Int32
    let id: Int
    var machine: Machine

    init(descriptor: Int32, id: Int, machine: Machine) {
      self.descriptor = descriptor
      self.id = id
      self.machine = machine
    }
  }

  let socket: LoopbackSocket
  let wakeRead: Int32
  let mailbox: PollingHTTPServer.Mailbox
  let settings: PollingHTTPServer.Settings
  let machineSettings: Machine.Settings
  let clock: C
  let handle: @Sendable (LoopbackSocket.Request) async -> Response?
  /// The handlers' and the timer's threads: a server in the same process as its clients (a
  /// test's, the bench's) is answered however busy they keep the shared pool.
  let answerers = OwnThreadsExecutor(name: "HTTP handlers")

  var connections: [Int: Connection] = [:]
  /// Connections whose request waits for a free handler, in arrival order.
  var queue: [(id: Int, request: LoopbackSocket.Request)] = []
  var answering = 0
  var nextID = 0
  var isListening = true
  var stopping = false
  /// Accepting pauses until then after `accept` failed for want of descriptors.
  var acceptPause = AcceptPause<C.Instant>()
  /// The task sleeping until the nearest deadline, and that deadline.
  var timer: (deadline: C.Instant, task: Task<Void, Never>)?

  init(
    socket: LoopbackSocket, wakeRead: Int32, mailbox: PollingHTTPServer.Mailbox,
    settings: PollingHTTPServer.Settings, clock: C,
    handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response?
  ) {
    self.socket = socket
    self.wakeRead = wakeRead
    self.mailbox = mailbox
    self.settings = settings
    self.clock = clock
    self.handle = handle
    machineSettings = Machine.Settings(
      limits: settings.limits, readDeadline: settings.readDeadline, writeDeadline: settings.writeDeadline,
      rejected: settings.rejected)
  }

  func run() {
    while !(stopping && connections.isEmpty) {
      var watched = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      let listening = isListening && !acceptPause.isPaused(at: clock.now)
      // Not listening (paused or stopped), its place in `watched` holds -1, which poll skips.
      watched.append(pollfd(fd: listening ? socket.descriptor : -1, events: Int16(POLLIN), revents: 0))
      var order: [Connection] = []
      for connection in connections.values {
        if connection.machine.isReading {
          watched.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0))
        } else if !connection.machine.pendingOutput.isEmpty {
          watched.append(pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0))
        } else {
          continue
        }
        order.append(connection)
      }
      armTimer()
      let ready = poll(&watched, nfds_t(watched.count), -1)
      if ready < 0, errno != EINTR { break }
      if watched[0].revents != 0 { drainWakeUps() }
      takeMail()
      for (index, connection) in order.enumerated() where watched[2 + index].revents != 0 {
        guard connections[connection.id] != nil else { continue }
        if connection.machine.isReading {
          read(connection)
        } else {
          write(connection)
        }
      }
      // After the connections: one a client closed frees its place before a new one is counted.
      if listening, isListening, watched[1].revents != 0 { acceptAll() }
      expireDeadlines()
      startQueued()
      mailbox.report(
        PollingHTTPServer.Census(
          open: connections.count,
          partialRequests: connections.values.count { $0.machine.isReading && $0.machine.hasRequestInProgress }))
    }
    timer?.task.cancel()
    answerers.stop()
    if isListening { socket.close() }
    let waiters = mailbox.state.withLock { state in
      state.isStopped = true
      state.census = PollingHTTPServer.Census()
      return state.stoppedWaiters.takeSatisfied(by: true) + state.censusWaiters.takeAll()
    }
    systemClose(wakeRead)
    systemClose(mailbox.wakeWrite)
    for waiter in waiters { waiter.resume() }
  }

  /// Sleeps a task on the clock until the nearest deadline (a connection's or the end of an
  /// accept pause), which then wakes the polling thread; a nearer deadline replaces it.
  private func armTimer() {
    var deadlines = connections.values.compactMap(\.machine.deadline)
    if let resumes = acceptPause.resumesAt { deadlines.append(resumes) }
    guard let nearest = deadlines.min() else {
      timer?.task.cancel()
      timer = nil
      return
    }
    if let timer, timer.deadline == nearest { return }
    timer?.task.cancel()
    let (clock, mailbox) = (clock, mailbox)
    timer = (
      nearest,
      Task(executorPreference: answerers) {
        do {
          try await clock.sleep(until: nearest, tolerance: nil)
        } catch {
          return  // replaced by a nearer deadline, or the server stopped
        }
        mailbox.timerFired()
      }
    )
  }

  private func drainWakeUps() {
    var bytes = [UInt8](repeating: 0, count: 256)
    while systemRead(wakeRead, &bytes, bytes.count) > 0 {}
  }

  private func takeMail() {
    let (replies, stopRequested, timerFired) = mailbox.state.withLock { state in
      defer {
        state.replies = []
        state.timerFired = false
      }
      return (state.replies, state.stopRequested, state.timerFired)
    }
    // A timer that fired is spent: the next deadline needs a new one, even if it is the same.
    if timerFired { timer = nil }
    for (id, response) in replies {
      answering -= 1
      guard let connection = connections[id] else { continue }
      perform(
        connection.machine.replied(response, keepAlive: settings.keepsAlive && !stopping, at: clock.now),
        on: connection)
    }
    if stopRequested, !stopping { beginStopping() }
  }

  private func beginStopping() {
    stopping = true
    if isListening {
      isListening = false
      socket.close()
    }
    for connection in Array(connections.values) {
      perform(connection.machine.stopping(), on: connection)
    }
  }

  private func acceptAll() {
    // At most once per wake-up, so that a flood of newcomers at the limit does not cost a poll
    // of every open connection per refusal.
    var hasReadReadyConnections = false
    while true {
      let descriptor = SocketCalls.accept(socket.descriptor)
      guard descriptor >= 0 else {
        // EAGAIN: none left. Out of descriptors or memory, the listening socket stays readable:
        // pause rather than spin on it while connections being served finish.
        if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) {
          acceptPause.failed(at: clock.now, for: settings.acceptPause)
        }
        return
      }
      PollingHTTPServer.setNonBlocking(descriptor)
      if connections.count >= settings.connectionLimit, !hasReadReadyConnections {
        hasReadReadyConnections = true
        readReadyConnections()
      }
      guard connections.count < settings.connectionLimit else {
        let response = settings.overloaded()
        let bytes =
          LoopbackSocket.head(
            status: response.status, contentType: response.contentType, contentLength: response.body.count)
          + response.body
        _ = bytes.withUnsafeBytes { SocketCalls.send(descriptor, $0.baseAddress!, $0.count) }
        systemClose(descriptor)
        continue
      }
      nextID += 1
      connections[nextID] = Connection(
        descriptor: descriptor, id: nextID, machine: Machine(settings: machineSettings, openedAt: clock.now))
    }
  }

  /// Reads every connection that has something to read, without waiting, so that one its
  /// client closed since the last wake-up frees its place before a new client is refused.
  private func readReadyConnections() {
    let reading = connections.values.filter(\.machine.isReading)
    var watched = reading.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    guard poll(&watched, nfds_t(watched.count), 0) > 0 else { return }
    for (connection, polled) in zip(reading, watched) where polled.revents != 0 { read(connection) }
  }

  private func read(_ connection: Connection) {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while connection.machine.isReading, connections[connection.id] != nil {
      let count = systemRead(connection.descriptor, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
      // 0: closed by the client; below 0: reset.
      perform(connection.machine.received(chunk[..<max(0, count)], at: clock.now), on: connection)
      if count <= 0 { return }
    }
  }

  private func write(_ connection: Connection) {
    while connections[connection.id] != nil {
      let pending = connection.machine.pendingOutput
      guard !pending.isEmpty else { return }
      let sent = pending.withUnsafeBytes { SocketCalls.send(connection.descriptor, $0.baseAddress!, $0.count) }
      if sent < 0, errno == EINTR { continue }
      if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }  // POLLOUT wakes us
      guard sent > 0 else { return perform(connection.machine.writeFailed(), on: connection) }
      let action = connection.machine.wrote(sent, at: clock.now)
      guard action == .write else { return perform(action, on: connection) }
    }
  }

  /// Does what a connection's state machine decided.
  private func perform(_ action: EventLoop.Machine.Action, on connection: Connection) {
    switch action {
    case .none: break
    case .startHandler(let request): queue.append((connection.id, request))
    case .write: write(connection)
    case .close:
      connections[connection.id] = nil
      systemClose(connection.descriptor)
    case .reset:
      connections[connection.id] = nil
      LoopbackSocket.reset(connection.descriptor)
    }
  }

  private func startQueued() {
    while answering < settings.concurrentRequests, !queue.isEmpty {
      let (id, request) = queue.removeFirst()
      guard connections[id] != nil else { continue }
      answering += 1
      let (handle, mailbox) = (handle, mailbox)
      Task(executorPreference: answerers) {
        let response = await handle(request)
        mailbox.post { $0.replies.append((id, response)) }
      }
    }
  }

  private func expireDeadlines() {
    let now = clock.now
    acceptPause.expire(at: now)
    for connection in Array(connections.values) where connection.machine.deadline.map({ $0 <= now }) == true {
      perform(connection.machine.deadlinePassed(at: now), on: connection)
    }
  }
}

/// Accepting paused after `accept` failed for want of descriptors, until ``resumesAt``.
package struct AcceptPause<Instant: InstantProtocol>: Equatable where Instant.Duration == Duration {
  package private(set) var resumesAt: Instant?

  package init() {}

  package func isPaused(at now: Instant) -> Bool { resumesAt.map { now < $0 } ?? false }

  package mutating func failed(at now: Instant, for pause: Duration) {
    resumesAt = now.advanced(by: pause)
  }

  package mutating func expire(at now: Instant) {
    if let resumesAt, resumesAt <= now { self.resumesAt = nil }
  }
}

// The C calls, named apart from the methods that shadow them inside the types above.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
private func systemClose(_ descriptor: Int32) { close(descriptor) }
