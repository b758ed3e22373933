import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// The `accounts.json` that versions before the SQLite store kept every account in, and its
/// one-time import.
///
/// - Concurrency: `Sendable` value.
struct LegacyAccountsFile: Sendable {
  let url: URL

  init(directory: URL) {
    url = directory.appendingPathComponent("accounts.json")
  }

  /// Where the file goes once imported: renamed, never deleted; a number is added when an
  /// earlier import's file is still there.
  private var aside: URL {
    let base = url.appendingPathExtension("imported")
    var candidate = base
    var number = 1
    while FileManager.default.fileExists(atPath: candidate.path) {
      number += 1
      candidate = URL(fileURLWithPath: base.path + "-\(number)")
    }
    return candidate
  }

  /// Imports the file into `store` in one transaction and renames it aside, if it is there.
  /// Returns what to tell the user: the import, and any stored value that had to be repaired.
  /// Two processes opening the folder at once import it once: the second finds it gone.
  ///
  /// - Throws: `AuthError/Code/storage` when the file cannot be read or is from a format this
  ///   version does not know; nothing is imported and the file is left as it is.
  func importOnce(into store: EmbeddedStore) throws -> [String] {
    guard let legacy = try read() else { return [] }
    let (database, warnings) = legacy.repairingDates(in: url.path)
    var movedTo: URL?
    let imported = try store.transaction { () throws -> Bool in
      // Another process may have imported it while this one read it.
      guard FileManager.default.fileExists(atPath: url.path) else { return false }
      for account in database.accounts.values { try store.save(account) }
      for (digest, token) in database.refreshTokens where database.accounts[token.uid] != nil {
        try store.insertRefreshToken(token, digest: digest)
      }
      let mail = Dictionary(
        database.mailbox.map { (Crypto.sha256Hex(Array($0.code.utf8)), $0) }, uniquingKeysWith: { $1 })
      for (digest, code) in database.actionCodes {
        try store.actionCodes.insert(code, digest: digest, mail: mail[digest])
      }
      for (digest, expiry) in database.usedProviderCodes ?? [:] {
        try store.spentProviderCodes.spend(digest: digest, until: expiry, now: .distantPast)
      }
      // Last, so that a failure above leaves the file where it was; undone if the commit fails.
      movedTo = try moveAside()
      return true
    } onRollback: {
      if let movedTo { try? FileManager.default.moveItem(at: movedTo, to: url) }
    }
    guard imported, let movedTo else { return warnings }
    return warnings + [
      "Imported \(database.accounts.count) accounts from \(url.path) into \(EmbeddedStore.fileName); the old "
        + "file is kept as \(movedTo.lastPathComponent). Delete it once you no longer need it."
    ]
  }

  /// The file's database; `nil` when there is no file.
  private func read() throws -> EmbeddedDatabase? {
    // Only "no such file" means nothing to import; any other read failure is reported.
    guard
      let data = try AuthError.storage({ () throws(FileError) in
        try FileContents.read(url, what: "The account database")
      })
    else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    guard let database = try? decoder.decode(EmbeddedDatabase.self, from: data),
      database.formatVersion == EmbeddedDatabase.currentFormatVersion
    else {
      throw AuthError(
        .storage,
        "\(url.path) is not a database this version can read. Nothing was changed; move the "
          + "file away to start empty, or open it with the version that wrote it.")
    }
    return database
  }

  private func moveAside() throws -> URL {
    let aside = aside
    do {
      try FileManager.default.moveItem(at: url, to: aside)
      return aside
    } catch {
      throw AuthError(
        .storage,
        "\(url.path) was read but could not be renamed to \(aside.lastPathComponent) (\(error.localizedDescription)); "
          + "nothing was imported. Move \(aside.lastPathComponent) away if it exists, and check the folder is writable."
      )
    }
  }
}
