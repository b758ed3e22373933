/// Sends HTTP requests for a backend: the seam between the wire format and the network.
///
/// ``URLSessionTransport`` is the default; tests use `RecordingTransport` (SignInKitTesting) to
/// see requests as curl text and reply with canned bodies.
///
/// - Concurrency: `Sendable`; ``send(_:)`` may be called from any isolation, concurrently.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the reply, whatever its status.
  ///
  /// - Cancellation: cancelling the calling task cancels the request; it throws
  ///   ``AuthError/Code/cancelled``.
  /// - Throws: ``AuthError`` with ``AuthError/Code/timeout`` when no reply came within the
  ///   request's timeout, ``AuthError/Code/network`` when the server could not be reached or the
  ///   connection broke.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
