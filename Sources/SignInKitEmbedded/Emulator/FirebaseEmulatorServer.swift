import Dispatch
import Foundation
import SignInConcurrency
import SignInHTTP
import SignInKit

/// An ``EmbeddedBackend`` served over HTTP on 127.0.0.1, speaking the Firebase Auth emulator's
/// client API (``FirebaseEmulatorRoutes``): any client that honours
/// `FIREBASE_AUTH_EMULATOR_HOST` (the Firebase SDKs, `FirebaseBackend.emulator(host:…)`,
/// `signin --backend emulator`) uses it unchanged, and every process shares one data folder.
///
/// ```swift
/// let backend = try EmbeddedBackend(directory: folder)
/// let server = try FirebaseEmulatorServer(backend: backend, port: 0)
/// print("FIREBASE_AUTH_EMULATOR_HOST=\(server.host)")
/// …
/// server.stop()
/// ```
///
/// Each connection is read and answered on a thread of its own (at most
/// ``connectionLimit`` at once), with a deadline for the whole request and a body limit,
/// through the same ``HTTPRequestParser`` the OAuth redirect listener uses. A malformed request
/// gets its 4xx/5xx and the connection is closed; the server goes on serving. One request per
/// connection (`Connection: close`).
///
/// - Concurrency: `Sendable`; requests are served concurrently, the backend (an actor) orders
///   their effects.
public final class FirebaseEmulatorServer: Sendable {
  /// At most this many connections are served at once; more are closed at once.
  public static let connectionLimit = 256
  /// The largest request body read: 1 MiB.
  public static let bodyLimit = 1 << 20

  public let port: UInt16
  public let routes: FirebaseEmulatorRoutes
  private let socket: LoopbackSocket
  private let readDeadline: Duration

  /// Starts serving at once.
  ///
  /// - Parameters:
  ///   - port: the TCP port on 127.0.0.1; 0 picks a free one (read it back from ``port``).
  ///   - readDeadline: how long one request may take to arrive.
  /// - Throws: ``AuthError/Code/network`` when the port cannot be bound (in use).
  public init(backend: EmbeddedBackend, port: UInt16 = 9099, readDeadline: Duration = .seconds(10)) throws {
    do {
      socket = try LoopbackSocket.listen(port: port)
    } catch let error as SocketError {
      throw AuthError(.network, error.message)
    }
    self.port = socket.port
    self.routes = FirebaseEmulatorRoutes(backend: backend)
    self.readDeadline = readDeadline
    socket.serveConnections(limit: Self.connectionLimit) { [self] connection in serve(connection) }
  }

  /// `127.0.0.1:PORT`: the value for `FIREBASE_AUTH_EMULATOR_HOST`.
  public var host: String { "127.0.0.1:\(port)" }

  /// Stops accepting connections. Requests already being answered finish.
  public func stop() { socket.close() }

  deinit { stop() }

  private func serve(_ connection: Int32) {
    let request: LoopbackSocket.Request
    switch LoopbackSocket.readRequest(
      from: connection, limits: HTTPRequestParser.Limits(bodyBytes: Self.bodyLimit), deadline: readDeadline)
    {
    case .request(let read): request = read
    case .rejected(let rejection): return LoopbackSocket.reject(rejection, on: connection)
    case .closed, .timedOut: return LoopbackSocket.close(connection)
    }
    let reply = Self.waitFor { [routes] in
      await routes.reply(method: request.method, target: request.target, headers: request.headers, body: request.body)
    }
    LoopbackSocket.respond(on: connection, status: reply.status, contentType: reply.contentType, body: reply.body)
  }

  /// Runs `work` as a task and blocks this (server-owned, non-pool) thread until it is done.
  private static func waitFor<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Locked<T?>(nil)
    Task {
      let value = await work()
      result.withLock { $0 = value }
      done.signal()
    }
    done.wait()
    return result.withLock { $0! }
  }
}
