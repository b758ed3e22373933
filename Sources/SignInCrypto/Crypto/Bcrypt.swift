import Foundation

#if canImport(CCrypt)
  import CCrypt
#endif

/// Verifying bcrypt hashes (`$2a$`, `$2b$`, `$2y$`), as other systems export them for an import:
/// libxcrypt's `crypt_r` on Linux. Nothing here hashes new passwords; SignInKit's own hashes
/// are scrypt or PBKDF2.
///
/// - Concurrency: stateless, callable from any isolation (`crypt_r` keeps its state in the
///   caller's buffer).
package enum Bcrypt {
  /// Whether ``matches(_:hash:)`` can verify a hash on this platform.
  package static var isAvailable: Bool {
    #if canImport(CCrypt)
      true
    #else
      false
    #endif
  }

  /// Whether `password` matches the bcrypt `hash` (the whole `$2b$cost$saltandhash` string),
  /// compared in constant time.
  ///
  /// - Throws: ``CryptoError`` where the platform has no bcrypt, or when `hash` is not one.
  package static func matches(_ password: String, hash: String) throws -> Bool {
    guard hash.hasPrefix("$2a$") || hash.hasPrefix("$2b$") || hash.hasPrefix("$2y$"), hash.utf8.count == 60 else {
      throw CryptoError("not a bcrypt hash: it must be the 60-character $2a$/$2b$/$2y$ string")
    }
    #if canImport(CCrypt)
      let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
      defer { data.deallocate() }
      memset(data, 0, MemoryLayout<crypt_data>.size)
      guard let result = crypt_r(password, hash, data) else { throw CryptoError("crypt_r refused the bcrypt hash") }
      let computed = Array(String(cString: result).utf8)
      let expected = Array(hash.utf8)
      return Crypto.constantTimeEqual(computed, expected)
    #else
      throw CryptoError("bcrypt is not available on this platform; verify bcrypt imports on Linux")
    #endif
  }
}
