import Foundation
import SignInConcurrency
import SignInHTTP

/// Receives the OAuth authorization response on `http://127.0.0.1:<port>/callback` (RFC 8252
/// §7.3): it listens before the browser is opened, takes the one request to its path, answers
/// it with a short HTML page, and closes. Requests to other paths (a browser's `/favicon.ico`)
/// get a 404 and do not count; malformed ones get a 4xx from `HTTPRequestParser`.
///
/// - Concurrency: `Sendable`. ``receive()`` may be called once; the socket is served by a
///   dedicated thread.
public final class LoopbackRedirectListener: Sendable {
  /// The redirect URI to register and send: `http://127.0.0.1:<port><path>`.
  public let redirectURI: URL
  private let socket: LoopbackSocket
  private let path: String
  /// How long one connection may take to send its whole request.
  let readDeadline: Duration
  /// Connections served at once; a browser opens a handful.
  static let connectionLimit = 64
  /// A redirect is a GET with a query: small heads, no body worth reading.
  static let limits = HTTPRequestParser.Limits(headBytes: 16 << 10, headerCount: 100, bodyBytes: 64 << 10)

  /// Listens on 127.0.0.1 at `port` (0: a random free port).
  ///
  /// - Parameters:
  ///   - port: the loopback port to listen on; 0 picks a free one.
  ///   - path: the redirect URI's path.
  ///   - readDeadline: how long one connection may take to send its whole request before it is
  ///     closed.
  public init(port: UInt16 = 0, path: String = "/callback", readDeadline: Duration = .seconds(10)) throws {
    self.readDeadline = readDeadline
    do {
      socket = try LoopbackSocket.listen(port: port)
    } catch let error as SocketError {
      throw AuthError(.network, error.message)
    }
    self.path = path.hasPrefix("/") ? path : "/" + path
    redirectURI = URL(string: "http://127.0.0.1:\(socket.port)\(self.path)")!
  }

  /// The query parameters of the redirect (`code` and `state`, or `error`).
  ///
  /// Each connection is served on its own thread with the read deadline given to `init`, so an
  /// idle connection (a browser's preconnect) or a slow one never holds up the redirect, and a
  /// request the parser refuses gets its 4xx status without counting.
  ///
  /// - Cancellation: cancelling the calling task closes the listener and throws
  ///   ``AuthError/Code/cancelled`` at once, even while clients hold connections open.
  public func receive() async throws -> [String: String] {
    let socket = socket
    let path = path
    let deadline = readDeadline
    let waiter = Locked<CheckedContinuation<[String: String], any Error>?>(nil)
    @Sendable func finish(_ result: Result<[String: String], any Error>) {
      waiter.withLock { continuation in
        defer { continuation = nil }
        return continuation
      }?.resume(with: result)
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String: String], any Error>) in
        waiter.withLock { $0 = continuation }
        socket.serveConnections(
          limit: Self.connectionLimit,
          ended: { finish(.failure(AuthError(.cancelled, "Sign-in was cancelled before the browser came back."))) }
        ) { connection in
          switch LoopbackSocket.readRequest(from: connection, limits: Self.limits, deadline: deadline) {
          case .closed:
            LoopbackSocket.close(connection)
          case .timedOut:
            LoopbackSocket.reject(.init(status: 408, reason: "the request did not arrive in time"), on: connection)
          case .rejected(let rejection):
            LoopbackSocket.reject(rejection, on: connection)
          case .request(let request) where request.path != path:
            LoopbackSocket.respond(
              on: connection, status: 404, contentType: "text/plain", body: Data("Not found".utf8))
          case .request(let request):
            let query = request.query
            let page = query["error"] == nil ? Self.receivedPage : Self.failurePage
            LoopbackSocket.respond(
              on: connection, status: 200, contentType: "text/html; charset=utf-8", body: Data(page.utf8))
            // Resume first: closing wakes the accepting thread, whose `ended` would resume too.
            finish(.success(query))
            socket.close()
          }
        }
      }
    } onCancel: {
      socket.close()
    }
  }

  /// Stops listening (a pending ``receive()`` throws).
  public func close() { socket.close() }

  /// Shown when the redirect arrives, before the app exchanges the code: it cannot yet say the
  /// sign-in worked, so it says what happened and where the result will be (as AppAuth's page).
  static let receivedPage = """
    <!doctype html><html><head><meta charset="utf-8"><title>Back to the app</title></head>
    <body><p>The app received your answer and is finishing the sign-in. You can close this tab and go back to the app.</p></body></html>
    """
  static let failurePage = """
    <!doctype html><html><head><meta charset="utf-8"><title>Sign-in failed</title></head>
    <body><p>Sign-in did not complete. Go back to the app for details.</p></body></html>
    """
}
