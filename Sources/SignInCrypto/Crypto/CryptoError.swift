#if canImport(CLibcrypto)
  import CLibcrypto
#endif

/// A cryptographic operation failed: bad key material, or the library refused.
///
/// - Concurrency: `Sendable` value.
package struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
  package let message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }

  #if canImport(CLibcrypto)
    /// An error carrying `what` failed and the newest OpenSSL error queue entry, which is drained.
    static func openSSL(_ what: String) -> CryptoError {
      var detail = ""
      var code = ERR_get_error()
      while code != 0 {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        code = ERR_get_error()
      }
      return CryptoError(detail.isEmpty ? what : "\(what): \(detail)")
    }
  #endif
}
