import Foundation
import SignInConcurrency

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
  /// The session requests run on: the one given, or `URLSession.shared`.
  public var session: URLSession { given ?? .shared }
  private let given: URLSession?

  /// A transport on `session`, or on `URLSession.shared` when `nil`. The shared session (and
  /// FoundationNetworking's cookie storage and cache behind it) is only created by the first
  /// request, so a process that never goes online does not pay for it at start-up.
  public init(session: URLSession? = nil) {
    given = session
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.httpBody = request.body
    // FoundationNetworking counts the timeout in whole seconds (0.3 would time out at once).
    urlRequest.timeoutInterval = max(1, request.timeout.seconds.rounded(.up))
    for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
    if Task.isCancelled { throw AuthError.cancelled }

    let running = Locked<URLSessionDataTask?>(nil)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
        let task = session.dataTask(with: urlRequest) { data, response, error in
          if let error {
            return continuation.resume(throwing: Self.authError(for: error))
          }
          guard let http = response as? HTTPURLResponse else {
            return continuation.resume(
              throwing: AuthError(.network, "The server's reply was not HTTP. Check the backend's address."))
          }
          var headers: [String: String] = [:]
          for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
          }
          continuation.resume(
            returning: HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
        }
        running.withLock { $0 = task }
        task.resume()
        // A cancellation that landed before the task existed is honoured here.
        if Task.isCancelled { task.cancel() }
      }
    } onCancel: {
      running.withLock { $0 }?.cancel()
    }
  }

  static func authError(for error: any Error) -> AuthError {
    guard let error = error as? URLError else {
      return AuthError(.network, "The request failed: \(error.localizedDescription). Check the connection.")
    }
    switch error.code {
    case .cancelled:
      return .cancelled
    case .timedOut:
      return AuthError(.timeout, "The server did not answer in time. Check the connection and try again.")
    case .cannotConnectToHost:
      return AuthError(
        .network, "Could not connect to the server (connection refused). Check that it is running and its address.")
    case .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .dnsLookupFailed:
      return AuthError(
        .network, "The network is unavailable (\(error.code.rawValue)). Check the connection and try again.")
    default:
      return AuthError(
        .network, "The request failed (URL error \(error.code.rawValue)). Check the connection and try again.")
    }
  }
}
