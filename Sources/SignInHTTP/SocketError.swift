/// A loopback socket could not be opened; `message` says why and what to do.
///
/// - Concurrency: `Sendable` value.
package struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
  package let message: String
  package var description: String { message }
}
