import SignInWire

/// How ``FirebaseBackend``'s typed calls reach an identity service that runs in the same
/// process (the embedded backend's): the wire layer's `Body` in, its `Reply` out, with no JSON
/// and no HTTP between. Without one, the calls go over HTTP to Firebase or its emulator.
///
/// Either way the domain ↔ wire mapping is `FirebaseBackend`'s, written once.
///
/// - Concurrency: `Sendable`; calls run concurrently.
package protocol IdentityToolkitTransport: Sendable {
  /// Hands `body` to `endpoint`, as a call on `path` with the path's `placeholders`.
  ///
  /// - Throws: the failure as ``AuthError`` reads it (``AuthError/init(_:message:)``), as the
  ///   same failure over HTTP would be read.
  func send<E: EndpointDescription>(
    _ endpoint: E, _ body: E.Body, on path: EndpointPath, placeholders: [String: String]
  ) async throws -> E.Reply
}
