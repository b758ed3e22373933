/// A cryptographic operation failed: bad key material, or the library refused.
///
/// - Concurrency: `Sendable` value.
package struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
  package let message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
