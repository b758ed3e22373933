import Foundation

#if canImport(CCrypt)
  import CCrypt
  import SignInFoundation
#endif

/// Verifying bcrypt hashes (`$2a$`, `$2b$`, `$2y$`), as other systems export them for an import:
/// libxcrypt's `crypt_r` on Linux, opened at the first hash checked (``SharedLibrary``) so a
/// process that never checks one never loads libcrypt. Nothing here hashes new passwords;
/// SignInKit's own hashes are scrypt or PBKDF2.
///
/// - Concurrency: stateless, callable from any isolation (`crypt_r` keeps its state in the
///   caller's buffer; the library is opened once, under the runtime's lazy initialisation).
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
      let cryptR = try Self.cryptR.get()
      guard let result = cryptR(password, hash, data) else { throw CryptoError("crypt_r refused the bcrypt hash") }
      let computed = Array(String(cString: result).utf8)
      let expected = Array(hash.utf8)
      return Crypto.constantTimeEqual(computed, expected)
    #else
      throw CryptoError("bcrypt is not available on this platform; verify bcrypt imports on Linux")
    #endif
  }

  #if canImport(CCrypt)
    typealias CryptR =
      @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<crypt_data>?) ->
      UnsafeMutablePointer<CChar>?

    /// libxcrypt's `crypt_r`, opened the first time a hash is checked.
    private static let cryptR = Result { () throws(CryptoError) in
      try load(firstOf: ["libcrypt.so.1", "libcrypt.so.2", "libcrypt.so"])
    }

    /// `crypt_r` from the first of `names` the loader finds.
    ///
    /// - Throws: ``CryptoError`` naming the files tried and saying what to install.
    static func load(firstOf names: [String]) throws(CryptoError) -> CryptR {
      do throws(SharedLibraryError) {
        return try SharedLibrary(firstOf: names).function("crypt_r", as: CryptR.self)
      } catch {
        throw CryptoError(
          "libcrypt, which checks imported bcrypt hashes, is missing: \(error.message). Install it (Debian and "
            + "Ubuntu: apt-get install libcrypt1; Fedora: dnf install libxcrypt) and start again.")
      }
    }
  #endif
}
