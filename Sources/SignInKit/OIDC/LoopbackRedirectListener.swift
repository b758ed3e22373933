import Foundation

/// Receives the OAuth authorization response on `http://127.0.0.1:<port>/callback` (RFC 8252
/// §7.3): it listens before the browser is opened, takes the one request to its path, answers
/// it with a short HTML page, and closes. Requests to other paths (a browser's `/favicon.ico`)
/// get a 404 and do not count.
///
/// - Concurrency: `Sendable`. ``receive()`` may be called once; the socket is served by a
///   dedicated thread.
public final class LoopbackRedirectListener: Sendable {
  /// The redirect URI to register and send: `http://127.0.0.1:<port><path>`.
  public let redirectURI: URL
  private let socket: LoopbackSocket
  private let path: String

  /// Listens on 127.0.0.1 at `port` (0: a random free port).
  public init(port: UInt16 = 0, path: String = "/callback") throws {
    socket = try LoopbackSocket.listen(port: port)
    self.path = path.hasPrefix("/") ? path : "/" + path
    redirectURI = URL(string: "http://127.0.0.1:\(socket.port)\(self.path)")!
  }

  /// The query parameters of the redirect (`code` and `state`, or `error`).
  ///
  /// - Cancellation: cancelling the calling task closes the listener and throws
  ///   ``AuthError/Code/cancelled``.
  public func receive() async throws -> [String: String] {
    let socket = socket
    let path = path
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String: String], any Error>) in
        Thread.detachNewThread {
          while let connection = socket.accept() {
            guard let request = LoopbackSocket.readRequest(from: connection, limit: 64 << 10) else {
              LoopbackSocket.respond(on: connection, status: 400, contentType: "text/plain", body: Data())
              continue
            }
            guard request.path == path else {
              LoopbackSocket.respond(on: connection, status: 404, contentType: "text/plain", body: Data("Not found".utf8))
              continue
            }
            let query = request.query
            let page = query["error"] == nil ? Self.successPage : Self.failurePage
            LoopbackSocket.respond(on: connection, status: 200, contentType: "text/html; charset=utf-8", body: Data(page.utf8))
            socket.close()
            return continuation.resume(returning: query)
          }
          continuation.resume(throwing: AuthError(.cancelled, "Sign-in was cancelled before the browser came back."))
        }
      }
    } onCancel: {
      socket.close()
    }
  }

  /// Stops listening (a pending ``receive()`` throws).
  public func close() { socket.close() }

  static let successPage = """
    <!doctype html><html><head><meta charset="utf-8"><title>Signed in</title></head>
    <body><p>Signed in. You can close this tab and go back to the app.</p></body></html>
    """
  static let failurePage = """
    <!doctype html><html><head><meta charset="utf-8"><title>Sign-in failed</title></head>
    <body><p>Sign-in did not complete. Go back to the app for details.</p></body></html>
    """
}
