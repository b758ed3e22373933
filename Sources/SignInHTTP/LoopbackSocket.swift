import Foundation
import SignInConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP listening socket on 127.0.0.1 and the little HTTP/1.1 it needs: read one request
/// (request line, headers, `Content-Length` body) through ``HTTPRequestParser`` within a
/// deadline, write one reply, close. Used by the OAuth loopback redirect listener (RFC 8252 §7.3)
/// and by test servers.
///
/// - Concurrency: `Sendable`; ``accept()`` blocks its calling thread, so call it from a
///   dedicated thread. ``close()`` wakes a blocked ``accept()`` and may be called from anywhere,
///   any number of times: the descriptor is closed once, and not while the thread of
///   ``serveConnections(limit:ended:_:)`` may still pass it to `accept`. (Closed under that
///   thread's feet, the number could be reused by another socket, whose connections the old
///   thread would then take.)
package final class LoopbackSocket: Sendable {
  /// One HTTP request as read from a connection.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Request: Sendable {
    package let method: String
    /// Path and query, as sent.
    package let target: String
    /// Header names lowercased.
    package let headers: [String: String]
    package let body: Data
    /// The client asked to close the connection after the reply (`Connection: close`, or
    /// HTTP/1.0 without `keep-alive`).
    package var closesAfterReply = false

    /// The path without the query.
    package var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's parameters, percent-decoded (`+` as a space).
    package var query: [String: String] {
      guard let mark = target.firstIndex(of: "?") else { return [:] }
      var fields: [String: String] = [:]
      for pair in target[target.index(after: mark)...].split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1).map {
          $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
        }
        if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
      }
      return fields
    }
  }

  package let descriptor: Int32
  package let port: UInt16
  /// Closed (shut down) once; released (the descriptor closed) once, by ``close()`` or, while
  /// connections are being accepted, by the accepting thread when it leaves.
  private struct Lifetime {
    var isClosed = false
    var isAccepting = false
    var isReleased = false

    /// Whether the caller should close the descriptor now: closed, not released yet, and no
    /// thread accepting on it.
    mutating func claimRelease() -> Bool {
      guard isClosed, !isReleased, !isAccepting else { return false }
      isReleased = true
      return true
    }
  }

  private let lifetime = Locked(Lifetime())

  private init(descriptor: Int32, port: UInt16) {
    self.descriptor = descriptor
    self.port = port
  }

  /// Listens on 127.0.0.1 at `port` (0: any free port).
  package static func listen(port: UInt16 = 0) throws -> LoopbackSocket {
    let descriptor = SocketCalls.openStreamSocket()
    guard descriptor >= 0 else { throw SocketError(message: "Cannot open a socket (errno \(errno)).") }
    var reuse: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = SocketCalls.loopbackAddress(port: port)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, systemListen(descriptor, 1024) == 0 else {
      let code = errno
      systemClose(descriptor)
      throw SocketError(
        message: "Cannot listen on 127.0.0.1:\(port) (errno \(code)). Is the port in use? Choose another, or 0 for any."
      )
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return LoopbackSocket(descriptor: descriptor, port: UInt16(bigEndian: address.sin_port))
  }

  /// The next connection, or `nil` once the socket is closed.
  ///
  /// A failed `accept` (a client that reset before it was accepted, or no descriptor left) is
  /// retried: only ``close()`` ends the loop.
  package func accept() -> Int32? {
    while true {
      if lifetime.withLock({ $0.isClosed }) { return nil }
      let connection = SocketCalls.accept(descriptor)
      if connection >= 0 { return connection }
      let code = errno
      if lifetime.withLock({ $0.isClosed }) { return nil }
      if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
        // Out of descriptors or memory: let connections being served finish first.
        var none = pollfd(fd: -1, events: 0, revents: 0)
        _ = poll(&none, 0, 10)
      }
    }
  }

  /// Stops listening; a blocked ``accept()`` returns `nil`.
  package func close() {
    let releases = lifetime.withLock { lifetime -> Bool in
      guard !lifetime.isClosed else { return false }
      lifetime.isClosed = true
      // Wakes a blocked `accept`; later ones fail at once. The descriptor stays ours.
      shutdown(descriptor, Int32(SHUT_RDWR))
      return lifetime.claimRelease()
    }
    if releases { systemClose(descriptor) }
  }

  // The accepting thread holds `self`, so by now it has left and released or never ran.
  deinit { close() }

  /// What reading one request from a connection came to.
  ///
  /// - Concurrency: `Sendable` value.
  package enum ReadOutcome: Sendable {
    case request(Request)
    /// Not a request this server reads: answer with its status and close.
    case rejected(HTTPRequestParser.Rejection)
    /// The peer closed (or reset) the connection before a whole request arrived.
    case closed
    /// The whole request did not arrive within the deadline.
    case timedOut
  }

  /// Reads one request from `connection` within `deadline` (for the whole request, not per
  /// read, so a client that trickles one byte at a time cannot hold the connection longer).
  package static func readRequest(
    from connection: Int32, limits: HTTPRequestParser.Limits = .init(), deadline: Duration = .seconds(10)
  ) -> ReadOutcome {
    var parser = HTTPRequestParser(limits: limits)
    var chunk = [UInt8](repeating: 0, count: 8192)
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: deadline)
    while true {
      let left = clock.now.duration(to: end)
      guard left > .zero else { return .timedOut }
      var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(clamping: max(1, Int64((left.seconds * 1000).rounded(.up))))
      let ready = poll(&descriptor, 1, milliseconds)
      if ready < 0, errno == EINTR { continue }
      if ready < 0 { return .closed }
      if ready == 0 { continue }
      let count = recv(connection, &chunk, chunk.count, 0)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return .closed }
      switch parser.consume(chunk[..<count]) {
      case .needsMore: continue
      case .request(let request): return .request(request)
      case .rejected(let rejection): return .rejected(rejection)
      }
    }
  }

  /// Serves connections until the socket is closed: one thread accepts, and each accepted
  /// connection is handed to `handle` on a thread of its own, so a slow or idle client never
  /// delays another. At most `limit` connections are served at once; one beyond that is closed
  /// at once. `handle` owns the connection and must close it. `ended` runs once on the accepting
  /// thread after the socket was closed (connections still being served may go on).
  package func serveConnections(
    limit: Int, ended: @escaping @Sendable () -> Void = {}, _ handle: @escaping @Sendable (Int32) -> Void
  ) {
    let active = Locked(0)
    lifetime.withLock { $0.isAccepting = true }
    Thread.detachNewThread { [self] in
      defer {
        let releases = lifetime.withLock { lifetime in
          lifetime.isAccepting = false
          return lifetime.claimRelease()
        }
        if releases { systemClose(descriptor) }
      }
      while let connection = accept() {
        let admitted = active.withLock { count in
          guard count < limit else { return false }
          count += 1
          return true
        }
        guard admitted else {
          Self.close(connection)
          continue
        }
        Thread.detachNewThread {
          handle(connection)
          active.withLock { $0 -= 1 }
        }
      }
      ended()
    }
  }

  /// Answers a refused request with its status and reason (plain text), and closes.
  package static func reject(_ rejection: HTTPRequestParser.Rejection, on connection: Int32) {
    respond(
      on: connection, status: rejection.status, contentType: "text/plain; charset=utf-8",
      body: Data((rejection.reason + "\n").utf8))
  }

  /// Writes a complete reply on `connection` and closes it.
  package static func respond(on connection: Int32, status: Int, contentType: String, body: Data) {
    sendAll(head(status: status, contentType: contentType, contentLength: body.count) + body, on: connection)
    systemClose(connection)
  }

  /// A reply's status line and headers, announcing `contentLength` body bytes; `keepAlive`
  /// says the connection stays open for the next request. `headers` are added as given; a
  /// name or value with a line break is dropped, so a value cannot add a header of its own.
  package static func head(
    status: Int, contentType: String, contentLength: Int, keepAlive: Bool = false,
    headers: [(name: String, value: String)] = []
  ) -> Data {
    var head = "HTTP/1.1 \(status) \(reasonPhrase(status))\r\nContent-Type: \(contentType)\r\n"
    head += "Content-Length: \(contentLength)\r\nCache-Control: no-store\r\n"
    for (name, value) in headers where !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) {
      head += "\(name): \(value)\r\n"
    }
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    return Data(head.utf8)
  }

  private static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 403: "Forbidden"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 421: "Misdirected Request"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    default: "Reply"
    }
  }

  /// Writes all of `bytes`; `false` when the peer has gone.
  @discardableResult
  package static func sendAll(_ bytes: Data, on connection: Int32) -> Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let sent = SocketCalls.send(connection, raw.baseAddress! + offset, raw.count - offset)
        if sent <= 0 { return false }
        offset += sent
      }
      return true
    }
  }

  /// Closes `connection` with a TCP reset instead of an orderly close (linger 0), as a server
  /// or middlebox that drops a connection does.
  package static func reset(_ connection: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
    systemClose(connection)
  }

  /// Closes a connection accepted from this socket.
  package static func close(_ connection: Int32) { systemClose(connection) }
}

// The C calls, named apart from the methods above that shadow them inside the type.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemClose(_ descriptor: Int32) { close(descriptor) }
