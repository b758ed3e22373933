import Foundation
import SignInHTTP
import SignInKit
import SignInKitEmbedded
import SignInWire

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
/// It is a real HTTP/1.1 server (`PollingHTTPServer` in SignInHTTP): one thread polls every connection,
/// so idle clients cost no thread; connections are kept alive; each request must arrive within
/// the read deadline and its body within ``bodyLimit``; at most ``connectionLimit`` connections
/// are open at once (one more gets a 503) and 64 requests are answered at once. A malformed
/// request gets its 400/408/413/501 in Firebase's error envelope and the connection is closed;
/// the server goes on serving. ``shutDown()`` answers the requests in flight before it returns.
///
/// Web pages are kept out (``EmulatorRequestPolicy``): a request whose `Host` is not a loopback
/// name (or `publicURL`'s host) gets a 421, one from an origin that is not loopback (or in
/// `allowedOrigins`) a 403, both before any work; allowed origins get CORS headers and their
/// preflights answered.
///
/// - Concurrency: `Sendable`; requests are served concurrently, the backend (an actor) orders
///   their effects.
package final class FirebaseEmulatorServer: Sendable {
  /// At most this many connections are open at once; one more gets a 503 and is closed.
  package static let connectionLimit = 1024
  /// The largest request body read: 1 MiB.
  package static let bodyLimit = 1 << 20

  package let port: UInt16
  package let routes: FirebaseEmulatorRoutes
  private let server: PollingHTTPServer

  /// Starts serving at once.
  ///
  /// - Parameters:
  ///   - backend: the backend to serve.
  ///   - port: the TCP port on 127.0.0.1; 0 picks a free one (read it back from ``port``).
  ///   - readDeadline: how long one request may take to arrive, counted from when its
  ///     connection was opened or answered the previous one; an idle connection is closed then.
  ///   - connectionLimit: how many connections may be open at once.
  ///   - publicURL: where clients reach the server when not on `http://127.0.0.1:PORT`; links
  ///     start with it and its host is served (``EmulatorRequestPolicy``).
  ///   - allowedOrigins: browser origins served beyond the loopback ones.
  ///   - appCheckSecret: when set, client calls must carry an App Check token signed with it.
  ///   - clock: keeps the read and write deadlines; tests pass a manual one.
  /// - Throws: `AuthError/Code/network` when the port cannot be bound (in use);
  ///   `AuthError/Code/misconfigured` for a public URL or origin that is not one.
  package init(
    backend: EmbeddedBackend, port: UInt16 = 9099, readDeadline: Duration = .seconds(10),
    connectionLimit: Int = FirebaseEmulatorServer.connectionLimit, publicURL: URL? = nil,
    allowedOrigins: [String] = [], appCheckSecret: String? = nil, clock: any Clock<Duration> = ContinuousClock()
  ) throws {
    let socket: LoopbackSocket
    let routes: FirebaseEmulatorRoutes
    do {
      socket = try LoopbackSocket.listen(port: port)
    } catch let error as SocketError {
      throw AuthError(.network, error.message)
    }
    do {
      routes = FirebaseEmulatorRoutes(
        backend: backend,
        policy: try EmulatorRequestPolicy(port: socket.port, publicURL: publicURL, allowedOrigins: allowedOrigins),
        appCheckSecret: appCheckSecret)
    } catch let error as PolicyError {
      socket.close()
      throw AuthError(.misconfigured, error.message)
    }
    var settings = PollingHTTPServer.Settings()
    settings.connectionLimit = connectionLimit
    settings.readDeadline = readDeadline
    settings.limits = HTTPRequestParser.Limits(bodyBytes: Self.bodyLimit)
    settings.rejected = { rejection in
      let code: FirebaseErrorCode =
        switch rejection.status {
        case 408: .deadlineExceeded
        case 413: .payloadTooLarge
        case 501: .notImplemented
        default: .invalidArgument
        }
      return Self.response(FirebaseFailure(code, rejection.reason).reply)
    }
    // The limit the server keeps is what the descriptor limit leaves room for, which may be
    // less than the one asked for: the reply says the one that holds.
    let kept = PollingHTTPServer.effectiveConnectionLimit(
      connectionLimit, descriptorLimit: SocketCalls.descriptorLimit())
    settings.overloaded = {
      Self.response(
        FirebaseFailure(
          .unavailable, "\(kept) connections are open, the most this server keeps; close some and retry"
        ).reply)
    }
    do {
      server = try PollingHTTPServer(socket: socket, settings: settings, clock: clock) { request in
        // RFC 9112 §3.2: an HTTP/1.1 request must name its Host; without one the Host check
        // that keeps rebinding pages out has nothing to check.
        guard request.isHTTP10 || request.headers["host"] != nil else {
          return Self.response(
            FirebaseFailure(
              .invalidArgument, "an HTTP/1.1 request must send a Host header (RFC 9112 section 3.2)"
            ).reply)
        }
        return Self.response(
          await routes.reply(
            method: request.method, target: request.target, headers: request.headers, body: request.body))
      }
    } catch let error as SocketError {
      throw AuthError(.network, error.message)
    }
    self.port = server.port
    self.routes = routes
  }

  /// `127.0.0.1:PORT`: the value for `FIREBASE_AUTH_EMULATOR_HOST`.
  package var host: String { "127.0.0.1:\(port)" }

  /// Stops accepting connections and closes idle ones; requests already being answered finish
  /// in the background. Returns at once.
  package func stop() { server.stop() }

  /// Stops as ``stop()`` does, then waits until every request in flight has been answered and
  /// every connection closed: after it returns, closing the backend loses nothing.
  ///
  /// - Cancellation: returns early when the calling task is cancelled; the server still stops.
  package func shutDown() async {
    server.stop()
    await server.stopped()
  }

  /// Suspends until the HTTP server's census satisfies `condition`: for tests that must know
  /// what the server has read before they move its clock.
  package func census(until condition: @escaping @Sendable (PollingHTTPServer.Census) -> Bool) async {
    await server.census(until: condition)
  }

  deinit { stop() }

  private static func response(_ reply: FirebaseEmulatorRoutes.Reply) -> PollingHTTPServer.Response {
    PollingHTTPServer.Response(
      status: reply.status, contentType: reply.contentType, body: reply.body,
      headers: reply.headers.map { ($0.name, $0.value) })
  }
}
