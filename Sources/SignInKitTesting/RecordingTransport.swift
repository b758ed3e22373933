import Foundation
import SignInConcurrency
import SignInKit

/// An `HTTPTransport` for tests: it records every request (render one with ``curl(_:)`` to
/// compare against a golden file) and answers with scripted replies, in order.
///
/// - Concurrency: `Sendable`; state is guarded by a lock, so concurrent sends are fine. Replies
///   are taken in the order the sends arrive.
public final class RecordingTransport: HTTPTransport {
  /// One scripted answer.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Reply: Sendable {
    case response(HTTPResponse)
    /// The transport fails, as a broken network would.
    case failure(AuthError)
    /// No answer until the caller's task is cancelled (then `AuthError/Code/cancelled`).
    case hang

    /// A reply with `status` and a UTF-8 body.
    public static func status(_ status: Int, _ body: String, headers: [String: String] = [:]) -> Reply {
      .response(HTTPResponse(status: status, headers: headers, body: Data(body.utf8)))
    }
  }

  private struct State: Sendable {
    var requests: [HTTPRequest] = []
    var replies: [Reply] = []
  }

  private let state = Locked(State())

  public init(_ replies: [Reply] = []) {
    state.withLock { $0.replies = replies }
  }

  /// Queues more replies.
  public func enqueue(_ replies: Reply...) {
    state.withLock { $0.replies += replies }
  }

  /// Every request sent so far, in order.
  public var requests: [HTTPRequest] { state.withLock { $0.requests } }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let reply = state.withLock { state -> Reply? in
      state.requests.append(request)
      return state.replies.isEmpty ? nil : state.replies.removeFirst()
    }
    switch reply {
    case .response(let response)?:
      return response
    case .failure(let error)?:
      throw error
    case .hang?:
      let never = AsyncStream<Never> { _ in }
      for await _ in never {}
      throw AuthError(.cancelled, "The request was cancelled.")
    case nil:
      return HTTPResponse(
        status: 599, body: Data(#"{"error":{"code":599,"message":"NO_REPLY_SCRIPTED"}}"#.utf8))
    }
  }

  /// `request` as a curl command line: method, URL, headers in order, and the body.
  public static func curl(_ request: HTTPRequest) -> String {
    func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
    var lines = ["curl -X \(request.method) \(quoted(request.url.absoluteString))"]
    lines += request.headers.map { "  -H \(quoted("\($0.name): \($0.value)"))" }
    if !request.body.isEmpty {
      lines.append("  --data-raw \(quoted(String(decoding: request.body, as: UTF8.self)))")
    }
    return lines.joined(separator: " \\\n") + "\n"
  }
}
