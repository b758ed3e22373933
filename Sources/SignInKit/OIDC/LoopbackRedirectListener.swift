import Foundation
import SignInConcurrency
import SignInHTTP

/// Receives the OAuth authorization response on `http://127.0.0.1:<port>/callback` (RFC 8252
/// §7.3): it listens before the browser is opened, takes the one request to its path, answers
/// it with a short HTML page, and stops. Requests to other paths (a browser's `/favicon.ico`)
/// get a 404 and do not count; malformed ones get a 4xx from `HTTPRequestParser`. A request
/// whose `Host` is not `127.0.0.1:<port>` gets a 421 and does not count: a page on another
/// site that a DNS name rebound to 127.0.0.1 cannot hand it an answer.
///
/// It is SignInKit's loopback HTTP server (`PollingHTTPServer`) with a handler of its own: one
/// thread polls every connection, so an idle connection (a browser's preconnect) or a slow one
/// never holds up the redirect.
///
/// - Concurrency: `Sendable`. ``receive()`` may be called once; the answer may come before it is
///   called and is kept.
public final class LoopbackRedirectListener: Sendable {
  /// The redirect URI to register and send: `http://127.0.0.1:<port><path>`.
  public let redirectURI: URL
  private let server: PollingHTTPServer
  private let answer: CallbackContinuation<[String: String]>
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
  ///     closed (a half-sent request gets a 408).
  ///   - clock: keeps the read deadline; tests pass a manual one.
  public init(
    port: UInt16 = 0, path: String = "/callback", readDeadline: Duration = .seconds(10),
    clock: any Clock<Duration> = ContinuousClock()
  ) throws {
    let path = path.hasPrefix("/") ? path : "/" + path
    let answer = CallbackContinuation<[String: String]> {
      AuthError(.cancelled, "Sign-in was cancelled before the browser came back.")
    }
    var settings = PollingHTTPServer.Settings()
    settings.connectionLimit = Self.connectionLimit
    settings.limits = Self.limits
    settings.readDeadline = readDeadline
    let stopper = Locked<PollingHTTPServer?>(nil)
    // The redirect URI's host and port, known once the server has its port.
    let expectedHost = Locked<String?>(nil)
    let (receivedPage, failurePage) = (Self.receivedPage, Self.failurePage)
    let server: PollingHTTPServer
    do {
      server = try PollingHTTPServer(port: port, settings: settings, clock: clock) { request in
        guard let host = request.headers["host"], host == expectedHost.withLock({ $0 }) else {
          return PollingHTTPServer.Response(
            status: 421, contentType: "text/plain",
            body: Data("This listener answers http://127.0.0.1 only; open the redirect URI as the app sent it.".utf8))
        }
        guard request.path == path else {
          return PollingHTTPServer.Response(status: 404, contentType: "text/plain", body: Data("Not found".utf8))
        }
        let query = request.query
        answer.resume(with: .success(query))
        // The one redirect came: stop listening once this page is written.
        stopper.withLock { $0 }?.stop()
        return PollingHTTPServer.Response(
          status: 200, contentType: "text/html; charset=utf-8",
          body: Data((query["error"] == nil ? receivedPage : failurePage).utf8))
      }
    } catch let error as SocketError {
      throw AuthError(.network, error.message)
    }
    stopper.withLock { $0 = server }
    expectedHost.withLock { $0 = "127.0.0.1:\(server.port)" }
    self.server = server
    self.answer = answer
    redirectURI = URL(string: "http://127.0.0.1:\(server.port)\(path)")!
  }

  /// The query parameters of the redirect (`code` and `state`, or `error`).
  ///
  /// - Cancellation: cancelling the calling task closes the listener and throws
  ///   ``AuthError/Code/cancelled`` at once, even while clients hold connections open.
  public func receive() async throws -> [String: String] {
    let server = server
    return try await answer.value(start: {}, onCancel: { server.stop() })
  }

  /// Stops listening (a pending ``receive()`` throws ``AuthError/Code/cancelled``).
  public func close() {
    answer.resume(with: .failure(AuthError(.cancelled, "Sign-in was cancelled before the browser came back.")))
    server.stop()
  }

  /// Suspends until the server's census satisfies `condition`: for tests that must know what
  /// it has read or counted before they move its clock.
  package func census(until condition: @escaping @Sendable (PollingHTTPServer.Census) -> Bool) async {
    await server.census(until: condition)
  }

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
