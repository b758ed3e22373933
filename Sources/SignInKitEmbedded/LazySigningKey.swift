import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
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
    let keyID: String
  }

  private let file: URL?
  private let makeKeyID: @Sendable (RSAPublicKey) -> String
  /// What the first ``get()`` found. Not a `Result`: instantiating `Result<_, AuthError>` looks
  /// up `AuthError`'s conformance to `Error` at run time, a scan that costs every launch.
  private enum Outcome {
    case loaded(Loaded)
    case failed(AuthError)
  }

  private let outcome = Locked<Outcome?>(nil)
  private let given: RSAPrivateKey?

  /// - Parameters:
  ///   - file: the PEM file, created on first use when absent; `nil` generates a key.
  ///   - keyID: the `kid` of the key, from its public half.
  init(file: URL?, keyID: @escaping @Sendable (RSAPublicKey) -> String) {
    self.file = file
    self.makeKeyID = keyID
    self.given = nil
  }

  /// A key given rather than read or made; its public half and id are worked out on first use.
  init(key: RSAPrivateKey, keyID: @escaping @Sendable (RSAPublicKey) -> String) {
    self.file = nil
    self.makeKeyID = keyID
    self.given = key
  }

  /// Checks now, without loading the key, that an existing file holds something shaped like
  /// one, so a damaged key file is reported when its owner opens rather than at the first
  /// token. A file that is not shaped so is loaded in full now, which either works (a form the
  /// quick check does not know) or throws the reason.
  ///
  /// - Throws: `AuthError/Code/storage` naming the file; the file is left as it is.
  func checkFile() throws(AuthError) {
    guard let file else { return }
    let data: Data?
    do {
      data = try AuthError.storage { () throws(FileError) in try FileContents.read(file, what: "The key file") }
    } catch {
      throw AuthError.wrapping(error)
    }
    guard let data else { return }
    if let pem = String(data: data, encoding: .utf8), RSAPrivateKey.isWellFormed(pem: pem) { return }
    _ = try get()
  }

  /// The key, loading it on the first call.
  ///
  /// - Throws: `AuthError/Code/storage` naming the file when it cannot be read or is not a key.
  func get() throws(AuthError) -> Loaded {
    let found = outcome.withLock { outcome -> Outcome in
      if let outcome { return outcome }
      let made: Outcome
      do {
        let key = try given ?? file.map(RSAPrivateKey.loadOrCreate(at:)) ?? RSAPrivateKey.generate()
        let publicKey = try key.publicKey
        made = .loaded(Loaded(key: key, publicKey: publicKey, keyID: makeKeyID(publicKey)))
      } catch {
        made = .failed(AuthError.wrapping(error))
      }
      outcome = made
      return made
    }
    switch found {
    case .loaded(let loaded): return loaded
    case .failed(let error): throw error
    }
  }
}
