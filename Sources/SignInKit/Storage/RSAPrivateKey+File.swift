import Foundation
import SignInCrypto
import SignInFoundation

extension RSAPrivateKey {
  /// The key kept in the PEM file at `url`, generating and saving one (mode 0600) when there is
  /// no file yet.
  ///
  /// An existing file is never replaced: every token the key signed, and every session that
  /// holds one, depends on it. A file that cannot be read (another user's, a disk error) or
  /// decoded (not UTF-8, not a key) is an error and is left as it is. A new key is written with
  /// ``AtomicFile/create(_:at:mode:)``, so when two processes start at once the second reads
  /// the first one's key instead of overwriting it.
  ///
  /// - Throws: ``AuthError`` with code ``AuthError/Code/storage`` naming the file.
  package static func loadOrCreate(at url: URL) throws -> RSAPrivateKey {
    if let existing = try load(at: url) { return existing }
    let key = try generate()
    let pem = Data(try key.pem.utf8)
    guard try AuthError.storage({ () throws(FileError) in try AtomicFile.create(pem, at: url, mode: 0o600) }) else {
      // Another process created it first: use theirs.
      guard let theirs = try load(at: url) else {
        throw AuthError(.storage, "The key file \(url.path) vanished while it was being created. Try again.")
      }
      return theirs
    }
    return key
  }

  private static func load(at url: URL) throws -> RSAPrivateKey? {
    guard let data = try AuthError.storage({ () throws(FileError) in try FileContents.read(url, what: "The key file") })
    else { return nil }
    do {
      guard let pem = String(data: data, encoding: .utf8) else { throw CryptoError("it is not UTF-8 text") }
      return try RSAPrivateKey(pem: pem)
    } catch {
      throw AuthError(
        .storage,
        "The key file \(url.path) is not a usable key (\(error)). It was left as it is. Restore it "
          + "from a backup, or move it away to start with a new key (tokens it signed then stop verifying).")
    }
  }
}
