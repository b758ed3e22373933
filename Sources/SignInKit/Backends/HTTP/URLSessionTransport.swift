import Foundation
import SignInHTTP

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux).
///
/// Each request gets its timeout from ``HTTPRequest/timeout``, rounded up to whole seconds. Cancelling the calling task
/// cancels the `URLSessionDataTask`, which on Linux reports `URLError.cancelled` rather than
/// `CancellationError`; both become ``AuthError/Code/cancelled``.
///
/// - Concurrency: `Sendable`; requests run concurrently on the session.
public struct URLSessionTransport: HTTPTransport {
  /// The session requests run on: the one given, or ``ephemeral``.
  public var session: URLSession { given ?? Self.ephemeral }
  private let given: URLSession?

  /// The session of transports given none: ephemeral, so nothing a reply carries (tokens,
  /// cookies) is cached on disk, and no cache or cookie folder is made in the user's home, as
  /// `URLSession.shared` makes one. Made by the first request that uses it.
  public static let ephemeral: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.urlCredentialStorage = nil
    return URLSession(configuration: configuration)
  }()

  /// A transport on `session`, or on ``ephemeral`` when `nil`. That session is only created by
  /// the first request, so a process that never goes online does not pay for it at start-up.
  public init(session: URLSession? = nil) {
    given = session
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    do {
      let reply = try await URLSessionClient(session: session).send(
        method: request.method, url: request.url, headers: request.headers, body: request.body,
        timeout: request.timeout)
      return HTTPResponse(status: reply.status, headers: reply.headers, body: reply.body)
    } catch {
      throw Self.authError(for: error, at: request.url)
    }
  }

  /// The ``AuthError`` for a failed exchange with the server at `url`, in words that say what
  /// to check and where (its host and port; never the path or query).
  static func authError(for failure: URLSessionClient.Failure, at url: URL) -> AuthError {
    let server = url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? "the server"
    return switch failure {
    case .cancelled:
      .cancelled
    case .timedOut:
      AuthError(.timeout, "\(server) did not answer in time. Check the connection and try again.")
    case .connectionRefused:
      AuthError(
        .network, "Could not connect to \(server) (connection refused). Check that it is running and its address.")
    case .unreachable(let code):
      AuthError(.network, "\(server) is unreachable: the network is unavailable (\(code)). Check the connection.")
    case .failed(let code):
      AuthError(.network, "The request to \(server) failed (URL error \(code)). Check the connection and try again.")
    case .other(let description):
      AuthError(.network, "The request to \(server) failed: \(description). Check the connection.")
    case .notHTTP:
      AuthError(.network, "The reply from \(server) was not HTTP. Check the backend's address.")
    }
  }
}
