import Foundation
import SignInConcurrency
import SignInCrypto
import SignInKit

/// An RSA signing key read from its file (or generated) the first time it is needed, once, so a
/// program that signs nothing with it pays nothing at start-up. A failure is kept and thrown
/// again to every later caller.
///
/// - Concurrency: `Sendable`, ``Locked``-guarded, any isolation.
final class LazySigningKey: Sendable {
  struct Loaded: Sendable {
    let key: RSAPrivateKey
    let publicKey: RSAPublicKey
    /// The first 9 bytes of the SHA-256 of the public key, base64url.
    let keyID: String
  }

  private let file: URL?
  private let loaded = Locked<Result<Loaded, AuthError>?>(nil)

  /// - Parameter file: the PEM file, created on first use when absent; `nil` generates a key.
  init(file: URL?) { self.file = file }

  /// The key, loading it on the first call.
  ///
  /// - Throws: ``AuthError/Code/storage`` naming the file when it cannot be read or is not a key.
  func get() throws(AuthError) -> Loaded {
    try loaded.withLock { loaded in
      if let loaded { return loaded }
      let result: Result<Loaded, AuthError>
      do {
        let key = try file.map(RSAPrivateKey.loadOrCreate(at:)) ?? RSAPrivateKey.generate()
        let publicKey = try key.publicKey
        result = .success(
          Loaded(
            key: key, publicKey: publicKey,
            keyID: Base64URL.encode(Crypto.sha256(publicKey.der).prefix(9))))
      } catch {
        result = .failure(AuthError.wrapping(error))
      }
      loaded = result
      return result
    }.get()
  }
}
