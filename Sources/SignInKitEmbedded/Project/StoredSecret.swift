import SignInCrypto

/// How every stored secret is kept (refresh tokens, action codes, the keys of pending steps):
/// as its SHA-256; the secret itself never is.
///
/// - Concurrency: stateless.
enum StoredSecret {
  /// SHA-256 (hex) of `secret`.
  static func digest(_ secret: String) -> String {
    Crypto.sha256Hex(Array(secret.utf8))
  }
}
