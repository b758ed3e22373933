import Foundation
import SignInConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 with persistent connections.
///
/// One thread polls the listening socket and every connection, so an idle or slow client costs
/// a descriptor and a parser, never a thread: a thousand idle connections do not stop the next
/// client being served. Each complete request is answered by `handle` in a task of its own, at
/// most ``Settings/concurrentRequests`` at once (more wait their turn, in order), and the reply
/// is written by the polling thread without blocking, so a client that stops reading holds up
/// only itself.
///
/// - Requests are read with ``HTTPRequestParser`` (the one the OAuth redirect listener uses,
///   fuzzed), within its limits; a rejection is answered with its status and the connection
///   closed.
/// - A connection is kept open after a reply (pipelined bytes included) unless the client asked
///   to close it. Each request must arrive within ``Settings/readDeadline`` of the connection
///   becoming ready for it; past that, a half-sent request gets a 408 and an idle connection
///   is closed.
/// - Each reply must be written within ``Settings/writeDeadline``: a client that asks for replies
///   and never reads them is reset and its reply's memory freed, so it cannot hold a place (or
///   ``stopped()``) for good.
/// - Beyond ``Settings/connectionLimit`` open connections, a new one gets
///   ``Settings/overloaded`` and is closed. The limit never exceeds what the process's descriptor
///   limit leaves room for (``effectiveConnectionLimit(_:descriptorLimit:)``), and a failing
///   `accept` (no descriptor left after all) pauses accepting briefly instead of spinning.
/// - ``stop()`` stops accepting and closes the connections that have no request in flight;
///   requests in flight are answered and their connections closed. ``stopped()`` waits for
///   that.
///
/// - Concurrency: `Sendable`. The polling thread owns every connection; `handle` runs in tasks
///   on the global executor and may run concurrently with itself.
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

    package init(status: Int, contentType: String, body: Data, headers: [(name: String, value: String)] = []) {
      self.status = status
      self.contentType = contentType
      self.body = body
      self.headers = headers
    }
  }

  /// Limits and the wording of the replies the server makes itself.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Settings: Sendable {
    package var connectionLimit = 1024
    package var concurrentRequests = 64
    package var limits = HTTPRequestParser.Limits()
    package var readDeadline: Duration = .seconds(10)
    /// How long a whole reply may take to be written, from its first byte.
    package var writeDeadline: Duration = .seconds(30)
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
  /// - Throws: ``SocketError`` when the port cannot be bound or the server cannot start.
  package convenience init(
    port: UInt16 = 0, settings: Settings = Settings(),
    handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response
  ) throws {
    try self.init(socket: try LoopbackSocket.listen(port: port), settings: settings, handle: handle)
  }

  /// Serves on `socket`, already listening (so a caller can learn its port first), until
  /// ``stop()``.
  ///
  /// - Throws: ``SocketError`` when the server cannot start; `socket` is then closed.
  package init(
    socket: LoopbackSocket, settings: Settings = Settings(),
    handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response
  ) throws {
    var limited = settings
    limited.connectionLimit = Self.effectiveConnectionLimit(
      settings.connectionLimit, descriptorLimit: SocketCalls.descriptorLimit())
    let settings = limited
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      socket.close()
      throw SocketError(message: "Could not make the server's wake-up pipe (\(String(cString: strerror(errno))))")
    }
    for descriptor in [socket.descriptor] + ends { Self.setNonBlocking(descriptor) }
    self.port = socket.port
    mailbox = Mailbox(wakeWrite: ends[1])
    let (wakeRead, mailbox) = (ends[0], mailbox)
    // The loop is made on its thread and never leaves it.
    Thread.detachNewThread {
      EventLoop(socket: socket, wakeRead: wakeRead, mailbox: mailbox, settings: settings, handle: handle).run()
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
      var replies: [(connection: Int, response: Response)] = []
      var stopRequested = false
      var isStopped = false
      var stoppedWaiters = ConditionWaiters<Bool>()
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
  }
}

/// The polling thread's world: every connection and what it is waiting for. It is made on that
/// thread and only that thread touches it.
private final class EventLoop {
  typealias Response = PollingHTTPServer.Response

  final class Connection {
    enum Phase {
      /// Waiting for (the rest of) a request, until `deadline`.
      case reading
      /// A whole request arrived; waiting for a free slot.
      case queued(LoopbackSocket.Request)
      /// `handle` is answering it.
      case answering
      /// Writing `output` from `written`.
      case writing
    }

    let descriptor: Int32
    let id: Int
    var parser: HTTPRequestParser
    var phase = Phase.reading
    var deadline: ContinuousClock.Instant
    var output: [UInt8] = []
    var written = 0
    var closesAfterWrite = false

    init(descriptor: Int32, id: Int, limits: HTTPRequestParser.Limits, deadline: ContinuousClock.Instant) {
      self.descriptor = descriptor
      self.id = id
      self.parser = HTTPRequestParser(limits: limits)
      self.deadline = deadline
    }
  }

  let socket: LoopbackSocket
  let wakeRead: Int32
  let mailbox: PollingHTTPServer.Mailbox
  let settings: PollingHTTPServer.Settings
  let handle: @Sendable (LoopbackSocket.Request) async -> Response
  let clock = ContinuousClock()

  var connections: [Int: Connection] = [:]
  var queue: [Int] = []
  var answering = 0
  var nextID = 0
  var isListening = true
  var stopping = false
  /// Accepting pauses until then after `accept` failed for want of descriptors.
  var acceptPause = AcceptPause()

  init(
    socket: LoopbackSocket, wakeRead: Int32, mailbox: PollingHTTPServer.Mailbox,
    settings: PollingHTTPServer.Settings, handle: @escaping @Sendable (LoopbackSocket.Request) async -> Response
  ) {
    self.socket = socket
    self.wakeRead = wakeRead
    self.mailbox = mailbox
    self.settings = settings
    self.handle = handle
  }

  func run() {
    while !(stopping && connections.isEmpty) {
      var watched = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      let listening = isListening && !acceptPause.isPaused(at: clock.now)
      // Not listening (paused or stopped), its place in `watched` holds -1, which poll skips.
      watched.append(pollfd(fd: listening ? socket.descriptor : -1, events: Int16(POLLIN), revents: 0))
      var order: [Connection] = []
      for connection in connections.values {
        switch connection.phase {
        case .reading: watched.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0))
        case .writing: watched.append(pollfd(fd: connection.descriptor, events: Int16(POLLOUT), revents: 0))
        case .queued, .answering: continue
        }
        order.append(connection)
      }
      let ready = poll(&watched, nfds_t(watched.count), timeout())
      if ready < 0, errno != EINTR { break }
      if watched[0].revents != 0 { drainWakeUps() }
      takeMail()
      for (index, connection) in order.enumerated() where watched[2 + index].revents != 0 {
        guard connections[connection.id] != nil else { continue }
        switch connection.phase {
        case .reading: read(connection)
        case .writing: write(connection)
        case .queued, .answering: break
        }
      }
      // After the connections: one a client closed frees its place before a new one is counted.
      if listening, isListening, watched[1].revents != 0 { acceptAll() }
      expireDeadlines()
      startQueued()
    }
    if isListening { socket.close() }
    let waiters = mailbox.state.withLock { state in
      state.isStopped = true
      return state.stoppedWaiters.takeSatisfied(by: true)
    }
    systemClose(wakeRead)
    systemClose(mailbox.wakeWrite)
    for waiter in waiters { waiter.resume() }
  }

  /// Milliseconds until the nearest read or write deadline, or the end of an accept pause; -1
  /// (forever) when there is none.
  private func timeout() -> Int32 {
    var deadlines = connections.values.compactMap { connection -> ContinuousClock.Instant? in
      switch connection.phase {
      case .reading, .writing: connection.deadline
      case .queued, .answering: nil
      }
    }
    if let resumes = acceptPause.resumesAt { deadlines.append(resumes) }
    guard let nearest = deadlines.min() else { return -1 }
    let left = clock.now.duration(to: nearest)
    guard left > .zero else { return 0 }
    return Int32(clamping: Int64((left.seconds * 1000).rounded(.up)))
  }

  private func drainWakeUps() {
    var bytes = [UInt8](repeating: 0, count: 256)
    while systemRead(wakeRead, &bytes, bytes.count) > 0 {}
  }

  private func takeMail() {
    let (replies, stopRequested) = mailbox.state.withLock { state in
      defer { state.replies = [] }
      return (state.replies, state.stopRequested)
    }
    for (id, response) in replies {
      answering -= 1
      guard let connection = connections[id] else { continue }
      send(response, on: connection)
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
      if case .reading = connection.phase { drop(connection) }
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
        descriptor: descriptor, id: nextID, limits: settings.limits,
        deadline: clock.now.advanced(by: settings.readDeadline))
    }
  }

  /// Reads every connection that has something to read, without waiting, so that one its
  /// client closed since the last wake-up frees its place before a new client is refused.
  private func readReadyConnections() {
    let reading = connections.values.filter { if case .reading = $0.phase { true } else { false } }
    var watched = reading.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
    guard poll(&watched, nfds_t(watched.count), 0) > 0 else { return }
    for (connection, polled) in zip(reading, watched) where polled.revents != 0 { read(connection) }
  }

  private func read(_ connection: Connection) {
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while case .reading = connection.phase {
      let count = systemRead(connection.descriptor, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
      guard count > 0 else { return drop(connection) }  // closed or reset by the client
      consume(chunk[..<count], on: connection)
    }
  }

  private func consume(_ bytes: ArraySlice<UInt8>, on connection: Connection) {
    switch connection.parser.consume(bytes) {
    case .needsMore: break
    case .request(let request):
      connection.phase = .queued(request)
      queue.append(connection.id)
    case .rejected(let rejection):
      connection.closesAfterWrite = true
      send(settings.rejected(rejection), on: connection)
    }
  }

  private func startQueued() {
    while answering < settings.concurrentRequests, !queue.isEmpty {
      let id = queue.removeFirst()
      guard let connection = connections[id], case .queued(let request) = connection.phase else { continue }
      connection.phase = .answering
      connection.closesAfterWrite = request.closesAfterReply
      answering += 1
      let (handle, mailbox) = (handle, mailbox)
      Task {
        let response = await handle(request)
        mailbox.post { $0.replies.append((id, response)) }
      }
    }
  }

  private func send(_ response: Response, on connection: Connection) {
    let keepAlive = !connection.closesAfterWrite && !stopping
    connection.closesAfterWrite = !keepAlive
    connection.output = Array(
      LoopbackSocket.head(
        status: response.status, contentType: response.contentType, contentLength: response.body.count,
        keepAlive: keepAlive, headers: response.headers) + response.body)
    connection.written = 0
    connection.phase = .writing
    connection.deadline = clock.now.advanced(by: settings.writeDeadline)
    write(connection)
  }

  private func write(_ connection: Connection) {
    while connection.written < connection.output.count {
      let sent = connection.output[connection.written...].withUnsafeBytes {
        SocketCalls.send(connection.descriptor, $0.baseAddress!, $0.count)
      }
      if sent < 0, errno == EINTR { continue }
      if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }  // POLLOUT wakes us
      guard sent > 0 else { return drop(connection) }
      connection.written += sent
    }
    guard !connection.closesAfterWrite, !stopping else { return drop(connection) }
    // Ready for the next request, which may have arrived with the last one.
    let leftover = connection.parser.leftover
    connection.parser = HTTPRequestParser(limits: settings.limits)
    connection.output = []
    connection.phase = .reading
    connection.deadline = clock.now.advanced(by: settings.readDeadline)
    if !leftover.isEmpty { consume(leftover[...], on: connection) }
  }

  private func expireDeadlines() {
    let now = clock.now
    acceptPause.expire(at: now)
    for connection in Array(connections.values) where connection.deadline <= now {
      if case .writing = connection.phase {
        // The client stopped reading: reset, so neither its reply nor the kernel's copy is kept.
        connections[connection.id] = nil
        LoopbackSocket.reset(connection.descriptor)
        continue
      }
      guard case .reading = connection.phase else { continue }
      if connection.parser.hasStarted {
        connection.closesAfterWrite = true
        send(
          settings.rejected(
            HTTPRequestParser.Rejection(status: 408, reason: "the request did not arrive in time")),
          on: connection)
      } else {
        drop(connection)
      }
    }
  }

  private func drop(_ connection: Connection) {
    connections[connection.id] = nil
    systemClose(connection.descriptor)
  }
}

/// Accepting paused after `accept` failed for want of descriptors, until ``resumesAt``.
package struct AcceptPause: Equatable {
  package private(set) var resumesAt: ContinuousClock.Instant?

  package init() {}

  package func isPaused(at now: ContinuousClock.Instant) -> Bool { resumesAt.map { now < $0 } ?? false }

  package mutating func failed(at now: ContinuousClock.Instant, for pause: Duration) {
    resumesAt = now.advanced(by: pause)
  }

  package mutating func expire(at now: ContinuousClock.Instant) {
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
