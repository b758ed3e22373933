import Foundation
import SignInConcurrency
import SignInHTTP
import SignInKit

/// A small HTTP/1.1 server on 127.0.0.1 for end-to-end tests of the real transport: it reads
/// each request, asks `handler` for the reply, answers and closes the connection. A `nil` reply
/// holds the connection open without answering, to make the client time out. Every request is
/// recorded.
///
/// - Concurrency: `Sendable`; each connection is served on its own thread, and `handler` may be
///   called concurrently.
public final class LoopbackHTTPServer: Sendable {
  /// One request as the server read it.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Request: Sendable {
    public let method: String
    /// Path and query, as sent.
    public let target: String
    /// Header names lowercased.
    public let headers: [String: String]
    public let body: Data
  }

  /// What to answer.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Reply: Sendable {
    public var status: Int
    public var body: String
    public var contentType: String
    public var delivery: Delivery

    public init(status: Int, body: String, contentType: String = "application/json", delivery: Delivery = .whole) {
      self.status = status
      self.body = body
      self.contentType = contentType
      self.delivery = delivery
    }
  }

  /// How a reply goes out on the wire: whole, or broken the ways networks break it.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Delivery: Sendable {
    /// Headers and body at once, then an orderly close.
    case whole
    /// Headers announcing the whole body, then only its first `bytes`, then an orderly close.
    case truncated(bytes: Int)
    /// A TCP reset as soon as the request is read: no status line at all.
    case reset
    /// The body in chunks of `bytes`, each after a pause of `pause`: slow, but complete.
    case trickled(bytes: Int, pause: Duration)
    /// Headers and the first `bytes` of the body, then silence on an open connection until
    /// ``LoopbackHTTPServer/stop()``.
    case stalled(bytes: Int)
  }

  public let port: UInt16
  private let socket: LoopbackSocket
  private let handler: @Sendable (Request) -> Reply?
  private let recorded = Locked<[Request]>([])
  private let heldConnections = Locked<[Int32]>([])
  private let arrivals = DispatchSemaphore(value: 0)

  /// Starts listening on a free port of 127.0.0.1.
  public init(handler: @escaping @Sendable (Request) -> Reply?) throws {
    self.handler = handler
    socket = try LoopbackSocket.listen()
    port = socket.port
    socket.serveConnections(limit: 256) { [self] connection in serve(connection) }
  }

  /// `127.0.0.1:PORT`.
  public var host: String { "127.0.0.1:\(port)" }

  /// Every request so far, in arrival order.
  public var requests: [Request] { recorded.withLock { $0 } }

  /// Waits (off the cooperative pool, on a thread of its own: blocked dispatch workers are added
  /// only about once a second) until one more request has arrived.
  public func nextArrival() async {
    let arrivals = arrivals
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        arrivals.wait()
        continuation.resume()
      }
    }
  }

  /// Stops listening and drops held connections.
  public func stop() {
    socket.close()
    let held = heldConnections.withLock { held in
      defer { held = [] }
      return held
    }
    for connection in held {
      LoopbackSocket.respond(on: connection, status: 503, contentType: "text/plain", body: Data())
    }
  }

  deinit { stop() }

  private func serve(_ connection: Int32) {
    let read: LoopbackSocket.Request
    switch LoopbackSocket.readRequest(from: connection) {
    case .request(let request): read = request
    case .rejected(let rejection): return LoopbackSocket.reject(rejection, on: connection)
    case .closed, .timedOut: return LoopbackSocket.close(connection)
    }
    let request = Request(method: read.method, target: read.target, headers: read.headers, body: read.body)
    recorded.withLock { $0.append(request) }
    arrivals.signal()
    guard let reply = handler(request) else {
      heldConnections.withLock { $0.append(connection) }
      return
    }
    let body = Data(reply.body.utf8)
    let head = LoopbackSocket.head(status: reply.status, contentType: reply.contentType, contentLength: body.count)
    switch reply.delivery {
    case .whole:
      LoopbackSocket.respond(on: connection, status: reply.status, contentType: reply.contentType, body: body)
    case .truncated(let bytes):
      LoopbackSocket.sendAll(head + body.prefix(bytes), on: connection)
      LoopbackSocket.close(connection)
    case .reset:
      LoopbackSocket.reset(connection)
    case .trickled(let bytes, let pause):
      // This thread is the server's own, so pacing it holds up no task.
      var sent = LoopbackSocket.sendAll(head, on: connection)
      var offset = 0
      while sent, offset < body.count {
        Thread.sleep(forTimeInterval: pause.seconds)
        sent = LoopbackSocket.sendAll(body[offset..<min(body.count, offset + max(1, bytes))], on: connection)
        offset += max(1, bytes)
      }
      LoopbackSocket.close(connection)
    case .stalled(let bytes):
      LoopbackSocket.sendAll(head + body.prefix(bytes), on: connection)
      heldConnections.withLock { $0.append(connection) }
    }
  }
}
