import Foundation
import SignInConcurrency
import SignInHTTP
import SignInKit

/// A small HTTP/1.1 server on 127.0.0.1 for end-to-end tests of the real transport: it reads
/// each request, asks `handler` for the reply, answers it whole or broken as the reply's
/// ``Delivery`` says, and closes the connection. A `nil` reply holds the
/// connection open without answering, to make the client time out. Every request is recorded.
/// It is SignInKit's one loopback server, with a test's handler.
///
/// - Concurrency: `Sendable`; one thread polls every connection, and `handler` may be called
///   concurrently.
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
  private let server: PollingHTTPServer
  private let recorded: Locked<[Request]>
  private let arrivals: Locked<Arrivals>

  /// Requests that arrived, and how many of them ``nextArrival()`` has handed out.
  private struct Arrivals {
    var arrived = 0
    var taken = 0
    var waiters = ConditionWaiters<Int>()
  }

  /// Starts listening on a free port of 127.0.0.1.
  public init(handler: @escaping @Sendable (Request) -> Reply?) throws {
    let recorded = Locked<[Request]>([])
    let arrivals = Locked(Arrivals())
    var settings = PollingHTTPServer.Settings()
    settings.connectionLimit = 256
    // One request per connection, so a broken reply (a reset) meets a fresh connection, as a
    // client meets a failing server.
    settings.keepsAlive = false
    server = try PollingHTTPServer(settings: settings) { read in
      let request = Request(method: read.method, target: read.target, headers: read.headers, body: read.body)
      recorded.withLock { $0.append(request) }
      let due = arrivals.withLock { arrivals in
        arrivals.arrived += 1
        return arrivals.waiters.takeSatisfied(by: arrivals.arrived)
      }
      for waiter in due { waiter.resume() }
      // Answered whole, or broken as asked; `nil` holds the connection open, silent.
      return handler(request).map { reply in
        PollingHTTPServer.Response(
          status: reply.status, contentType: reply.contentType, body: Data(reply.body.utf8),
          delivery: reply.delivery.onTheWire)
      }
    }
    port = server.port
    self.recorded = recorded
    self.arrivals = arrivals
  }

  /// `127.0.0.1:PORT`.
  public var host: String { "127.0.0.1:\(port)" }

  /// Every request so far, in arrival order.
  public var requests: [Request] { recorded.withLock { $0 } }

  /// Waits until the next request has arrived: the first call for the first request, the
  /// second for the second, and so on, whether it came before the call or after. Returns early
  /// when the calling task is cancelled.
  public func nextArrival() async {
    let number = arrivals.withLock { arrivals in
      arrivals.taken += 1
      return arrivals.taken
    }
    await arrivals.wait(on: \.waiters, observing: \.arrived) { $0 >= number }
  }

  /// Stops listening and closes held connections.
  public func stop() { server.stop() }

  deinit { stop() }
}

extension LoopbackHTTPServer.Delivery {
  /// The server's delivery for this one.
  fileprivate var onTheWire: PollingHTTPServer.Delivery {
    switch self {
    case .whole: .whole
    case .truncated(let bytes): .truncated(bytes: bytes)
    case .reset: .reset
    case .trickled(let bytes, let pause): .trickled(bytes: bytes, pause: pause)
    case .stalled(let bytes): .stalled(bytes: bytes)
    }
  }
}
