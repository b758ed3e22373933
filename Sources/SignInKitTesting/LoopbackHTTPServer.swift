import Foundation
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

    public init(status: Int, body: String, contentType: String = "application/json") {
      self.status = status
      self.body = body
      self.contentType = contentType
    }
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
    Thread.detachNewThread { [self] in
      while let connection = socket.accept() {
        Thread.detachNewThread { [self] in serve(connection) }
      }
    }
  }

  /// `127.0.0.1:PORT`.
  public var host: String { "127.0.0.1:\(port)" }

  /// Every request so far, in arrival order.
  public var requests: [Request] { recorded.withLock { $0 } }

  /// Waits (off the cooperative pool) until one more request has arrived.
  public func nextArrival() async {
    let arrivals = arrivals
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        arrivals.wait()
        continuation.resume()
      }
    }
  }

  /// Stops listening and drops held connections.
  public func stop() {
    socket.close()
    let held = heldConnections.withLock { held in defer { held = [] }; return held }
    for connection in held { LoopbackSocket.respond(on: connection, status: 503, contentType: "text/plain", body: Data()) }
  }

  deinit { stop() }

  private func serve(_ connection: Int32) {
    guard let read = LoopbackSocket.readRequest(from: connection) else {
      LoopbackSocket.respond(on: connection, status: 400, contentType: "text/plain", body: Data())
      return
    }
    let request = Request(method: read.method, target: read.target, headers: read.headers, body: read.body)
    recorded.withLock { $0.append(request) }
    arrivals.signal()
    guard let reply = handler(request) else {
      heldConnections.withLock { $0.append(connection) }
      return
    }
    LoopbackSocket.respond(
      on: connection, status: reply.status, contentType: reply.contentType, body: Data(reply.body.utf8))
  }
}
