import Foundation

/// One connection of ``PollingHTTPServer``, as a pure state machine: the server's event loop
/// reports what happened (bytes arrived, the peer closed, a deadline passed, the handler
/// answered, bytes were written) and performs the ``Action`` it gets back. There are no sockets
/// and no clock in here: every event carries the instant it happened at, so tests drive it with
/// any instants they like.
///
/// The rules it keeps:
/// - A request must arrive whole within ``Settings/readDeadline`` of the connection becoming
///   ready for it (opened, or its previous reply written). Past that, a half-sent request gets
///   a 408 and an idle connection is closed.
/// - A request the parser refuses is answered with its status, and the connection closes.
/// - A reply's bytes must drain within ``Settings/writeDeadline`` of being queued; past that the
///   connection is reset, so a client that stops reading holds neither a place nor memory.
/// - After a reply the connection reads the next request (pipelined bytes included), unless the
///   request asked to close, the reply's ``PollingHTTPServer/Delivery`` ends otherwise, or the
///   server is stopping.
///
/// - Concurrency: a value type, owned by the event loop's thread.
package struct HTTPConnectionStateMachine<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  /// Limits and deadlines.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Settings: Sendable {
    package var limits: HTTPRequestParser.Limits
    package var readDeadline: Duration
    package var writeDeadline: Duration
    /// The reply to a refused request, or to one that did not arrive in time (408).
    package var rejected: @Sendable (HTTPRequestParser.Rejection) -> PollingHTTPServer.Response

    package init(
      limits: HTTPRequestParser.Limits, readDeadline: Duration, writeDeadline: Duration,
      rejected: @escaping @Sendable (HTTPRequestParser.Rejection) -> PollingHTTPServer.Response
    ) {
      self.limits = limits
      self.readDeadline = readDeadline
      self.writeDeadline = writeDeadline
      self.rejected = rejected
    }
  }

  /// What the event loop does next.
  ///
  /// - Concurrency: `Sendable` value.
  package enum Action: Sendable, Equatable {
    /// Nothing: wait for the next event.
    case none
    /// Give the request to the handler, and report its reply with ``replied(_:keepAlive:at:)``.
    case startHandler(LoopbackSocket.Request)
    /// Write ``pendingOutput`` when the socket can take it, and report with ``wrote(_:at:)``.
    case write
    /// Close the connection.
    case close
    /// Close it with a TCP reset.
    case reset
  }

  /// What happens after a reply's last byte.
  enum End: Sendable, Equatable {
    /// Read the next request, or close when the reply said so.
    case next(keepAlive: Bool)
    case close
    case reset
    /// Keep the connection open, silent, until the server stops.
    case hold
  }

  /// One part of a reply: bytes to write, or a pause before the next part.
  enum Segment: Sendable, Equatable {
    case bytes([UInt8])
    case pause(Duration)
  }

  private enum State: Sendable {
    case reading(HTTPRequestParser, deadline: Instant)
    /// The handler has the request (or it waits for a free handler).
    case answering
    /// Writing `output` from `written`; then the rest of `segments`, then `end`.
    case writing(output: [UInt8], written: Int, deadline: Instant, segments: ArraySlice<Segment>, end: End)
    /// Paused between two parts of a reply until `until`.
    case pausing(until: Instant, segments: ArraySlice<Segment>, end: End)
    /// Open and silent until the server stops.
    case holding
    case closed
  }

  private var state: State
  private let settings: Settings
  /// What the parser received beyond the request being answered: the next request's start.
  private var leftover: [UInt8] = []

  /// A connection opened at `now`.
  package init(settings: Settings, openedAt now: Instant) {
    self.settings = settings
    state = .reading(HTTPRequestParser(limits: settings.limits), deadline: now.advanced(by: settings.readDeadline))
  }

  // MARK: - What the event loop reads

  /// The instant at which ``deadlinePassed(at:)`` should be called, if any.
  package var deadline: Instant? {
    switch state {
    case .reading(_, let deadline), .writing(_, _, let deadline, _, _): deadline
    case .pausing(let until, _, _): until
    case .answering, .holding, .closed: nil
    }
  }

  /// Whether the loop should watch the connection for bytes from the peer.
  package var isReading: Bool { if case .reading = state { true } else { false } }

  /// Whether a request is with the handler.
  package var isAnswering: Bool { if case .answering = state { true } else { false } }

  /// Whether the connection is held open after its reply (or instead of one).
  package var isHolding: Bool { if case .holding = state { true } else { false } }

  /// Whether a request has begun to arrive: an idle connection can be closed at once when the
  /// server stops; a half-sent request is answered at its deadline.
  package var hasRequestInProgress: Bool {
    if case .reading(let parser, _) = state { parser.hasStarted } else { true }
  }

  /// The bytes still to write, while writing.
  package var pendingOutput: ArraySlice<UInt8> {
    if case .writing(let output, let written, _, _, _) = state { output[written...] } else { [] }
  }

  package var isClosed: Bool { if case .closed = state { true } else { false } }

  // MARK: - Events

  /// Bytes arrived from the peer; an empty chunk means it closed (or reset) the connection.
  package mutating func received(_ bytes: ArraySlice<UInt8>, at now: Instant) -> Action {
    guard case .reading(var parser, let deadline) = state else {
      // Bytes while answering or writing wait in the socket; a close ends the connection.
      if bytes.isEmpty { return closed() }
      return .none
    }
    guard !bytes.isEmpty else { return closed() }
    let outcome = parser.consume(bytes)
    state = .reading(parser, deadline: deadline)
    return handle(outcome, parser: parser, at: now)
  }

  /// The handler answered: the reply to write, as `delivery` says. `keepAlive` is `false` when
  /// the server is stopping.
  package mutating func replied(
    _ reply: PollingHTTPServer.Response?, keepAlive: Bool, at now: Instant
  ) -> Action {
    guard case .answering = state else { return .none }
    guard let reply else {
      state = .holding
      return .none
    }
    let (segments, end) = Self.plan(reply, keepAlive: keepAlive && !closesAfterReply)
    return start(segments[...], end: end, at: now)
  }

  /// `count` bytes of ``pendingOutput`` were written.
  package mutating func wrote(_ count: Int, at now: Instant) -> Action {
    guard case .writing(let output, var written, let deadline, let segments, let end) = state else { return .none }
    written += count
    guard written >= output.count else {
      state = .writing(output: output, written: written, deadline: deadline, segments: segments, end: end)
      return .write
    }
    return start(segments, end: end, at: now)
  }

  /// The write failed: the peer has gone.
  package mutating func writeFailed() -> Action { closed() }

  /// The instant ``deadline`` named has come.
  package mutating func deadlinePassed(at now: Instant) -> Action {
    guard let deadline, deadline <= now else { return .none }
    switch state {
    case .reading(let parser, _):
      guard parser.hasStarted else { return closed() }
      return reject(HTTPRequestParser.Rejection(status: 408, reason: "the request did not arrive in time"), at: now)
    case .writing:
      // The client stopped reading: reset, so neither its reply nor the kernel's copy is kept.
      state = .closed
      return .reset
    case .pausing(_, let segments, let end):
      return start(segments, end: end, at: now)
    case .answering, .holding, .closed:
      return .none
    }
  }

  /// The server is stopping: an idle connection or a held one closes now; one with a request
  /// in progress is answered first.
  package mutating func stopping() -> Action {
    switch state {
    case .reading(let parser, _) where !parser.hasStarted: closed()
    case .holding: closed()
    default: .none
    }
  }

  // MARK: - Steps

  /// Whether the request being answered asked to close after the reply.
  private var closesAfterReply = false

  private mutating func handle(_ outcome: HTTPRequestParser.Outcome, parser: HTTPRequestParser, at now: Instant)
    -> Action
  {
    switch outcome {
    case .needsMore:
      return .none
    case .request(let request):
      leftover = parser.leftover
      closesAfterReply = request.closesAfterReply
      state = .answering
      return .startHandler(request)
    case .rejected(let rejection):
      return reject(rejection, at: now)
    }
  }

  private mutating func reject(_ rejection: HTTPRequestParser.Rejection, at now: Instant) -> Action {
    start([.bytes(Self.bytes(of: settings.rejected(rejection), keepAlive: false))][...], end: .close, at: now)
  }

  /// Starts the next part of a reply, or what follows its last.
  private mutating func start(_ segments: ArraySlice<Segment>, end: End, at now: Instant) -> Action {
    var segments = segments
    while let segment = segments.popFirst() {
      switch segment {
      case .bytes(let bytes) where bytes.isEmpty: continue
      case .bytes(let bytes):
        state = .writing(
          output: bytes, written: 0, deadline: now.advanced(by: settings.writeDeadline), segments: segments, end: end)
        return .write
      case .pause(let duration):
        state = .pausing(until: now.advanced(by: duration), segments: segments, end: end)
        return .none
      }
    }
    switch end {
    case .close: return closed()
    case .reset:
      state = .closed
      return .reset
    case .hold:
      state = .holding
      return .none
    case .next(let keepAlive):
      guard keepAlive else { return closed() }
      // Ready for the next request, which may have arrived with the last one.
      var parser = HTTPRequestParser(limits: settings.limits)
      state = .reading(parser, deadline: now.advanced(by: settings.readDeadline))
      let pending = leftover
      leftover = []
      guard !pending.isEmpty else { return .none }
      let outcome = parser.consume(pending)
      state = .reading(parser, deadline: now.advanced(by: settings.readDeadline))
      return handle(outcome, parser: parser, at: now)
    }
  }

  private mutating func closed() -> Action {
    if case .closed = state { return .none }
    state = .closed
    return .close
  }

  // MARK: - Replies on the wire

  /// The parts of `reply` as its delivery breaks them, and what follows.
  static func plan(_ reply: PollingHTTPServer.Response, keepAlive: Bool) -> ([Segment], End) {
    let body = Array(reply.body)
    switch reply.delivery {
    case .whole:
      return ([.bytes(bytes(of: reply, keepAlive: keepAlive))], .next(keepAlive: keepAlive))
    case .truncated(let count):
      return ([.bytes(head(of: reply, keepAlive: false) + body.prefix(count))], .close)
    case .reset:
      return ([], .reset)
    case .trickled(let count, let pause):
      var segments: [Segment] = [.bytes(head(of: reply, keepAlive: false))]
      var offset = 0
      while offset < body.count {
        segments.append(.pause(pause))
        segments.append(.bytes(Array(body[offset..<min(body.count, offset + max(1, count))])))
        offset += max(1, count)
      }
      return (segments, .close)
    case .stalled(let count):
      return ([.bytes(head(of: reply, keepAlive: false) + body.prefix(count))], .hold)
    }
  }

  private static func head(of reply: PollingHTTPServer.Response, keepAlive: Bool) -> [UInt8] {
    Array(
      LoopbackSocket.head(
        status: reply.status, contentType: reply.contentType, contentLength: reply.body.count, keepAlive: keepAlive,
        headers: reply.headers))
  }

  private static func bytes(of reply: PollingHTTPServer.Response, keepAlive: Bool) -> [UInt8] {
    head(of: reply, keepAlive: keepAlive) + Array(reply.body)
  }
}
