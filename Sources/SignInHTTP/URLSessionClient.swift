import Foundation
import SignInConcurrency

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP exchange over `URLSession` (FoundationNetworking on Linux), with the quirks of both
/// handled once: the timeout in whole seconds, a cancellation honoured whether it lands before
/// or after the data task exists, and `URLError` sorted into what a caller can act on.
///
/// - Concurrency: `Sendable`; exchanges run concurrently on the session.
package struct URLSessionClient: Sendable {
  /// Why an exchange ended without a reply.
  package enum Failure: Error, Equatable {
    /// The calling task was cancelled (on Linux the data task reports `URLError.cancelled`).
    case cancelled
    /// No reply within the timeout.
    case timedOut
    /// The host refused the connection.
    case connectionRefused
    /// No network, a lost connection, or a name that does not resolve; the `URLError` code.
    case unreachable(Int)
    /// Any other `URLError`, by code.
    case failed(Int)
    /// An error that is not a `URLError`, in its own words.
    case other(String)
    /// The reply was not HTTP.
    case notHTTP
  }

  /// A reply: status, headers as the session gave them, body.
  package struct Reply: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data
  }

  package let session: URLSession

  package init(session: URLSession) {
    self.session = session
  }

  /// Sends one request and returns the reply, whatever its status.
  ///
  /// - Parameter timeout: rounded up to whole seconds, at least one: FoundationNetworking counts
  ///   in whole seconds, and 0.3 would time out at once.
  /// - Cancellation: cancelling the calling task cancels the data task; it throws
  ///   ``Failure/cancelled``.
  package func send(
    method: String, url: URL, headers: [(name: String, value: String)], body: Data, timeout: Duration
  ) async throws(Failure) -> Reply {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = max(1, timeout.seconds.rounded(.up))
    for header in headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
    if Task.isCancelled { throw .cancelled }

    let running = Locked<URLSessionDataTask?>(nil)
    let session = session
    let outcome: Result<Reply, Failure> = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<Reply, Failure>, Never>) in
        let task = session.dataTask(with: request) { data, response, error in
          if let error { return continuation.resume(returning: .failure(Self.failure(for: error))) }
          guard let http = response as? HTTPURLResponse else {
            return continuation.resume(returning: .failure(.notHTTP))
          }
          var headers: [String: String] = [:]
          for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
          }
          continuation.resume(
            returning: .success(Reply(status: http.statusCode, headers: headers, body: data ?? Data())))
        }
        running.withLock { $0 = task }
        task.resume()
        // A cancellation that landed before the task existed is honoured here.
        if Task.isCancelled { task.cancel() }
      }
    } onCancel: {
      running.withLock { $0 }?.cancel()
    }
    return try outcome.get()
  }

  /// What a session's error means for the caller.
  package static func failure(for error: any Error) -> Failure {
    guard let error = error as? URLError else { return .other(error.localizedDescription) }
    switch error.code {
    case .cancelled: return .cancelled
    case .timedOut: return .timedOut
    case .cannotConnectToHost: return .connectionRefused
    case .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .dnsLookupFailed:
      return .unreachable(error.code.rawValue)
    default: return .failed(error.code.rawValue)
    }
  }
}
