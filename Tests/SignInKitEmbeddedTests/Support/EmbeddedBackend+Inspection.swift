import Foundation
import SignInStorage

@testable import SignInKitEmbedded

extension EmbeddedBackend {
  /// The stored account `uid`, as the database holds it (tests only).
  func storedAccount(uid: String) throws -> EmbeddedDatabase.Account? {
    try store.account(uid: uid)
  }

  /// Stores `account` as it is, bypassing every rule, as if an older version had written it
  /// (tests only).
  func putStoredAccount(_ account: EmbeddedDatabase.Account) throws {
    try store.save(account)
  }

  /// The stored keys (SHA-256 digests of the keys) of the pending steps of `kind`, oldest
  /// first (tests only).
  func storedPendingKeyDigests(_ kind: String) throws -> [String] {
    try store.connection.use {
      try $0.rows("SELECT key FROM pending_second_factors WHERE kind = ? ORDER BY id", [.text(kind)])
    }.compactMap { $0.text(0) }
  }

  /// The counter stored for the passkey `credentialID` (tests only).
  func storedPasskeySignCount(_ credentialID: String) throws -> UInt32? {
    try store.passkeySignCount(credentialID)
  }

  /// Records a use of the passkey as a sign-in does, the counter moving from `old` to `new`
  /// (tests only); `false` when it no longer stands at `old`.
  func recordStoredPasskeyUse(_ credentialID: String, from old: UInt32, to new: UInt32) throws -> Bool {
    try store.transaction { try store.recordPasskeyUse(credentialID, from: old, to: new, at: now()) }
  }

  /// How many action codes the database holds, live or not (tests only).
  func storedActionCodeCount() throws -> Int {
    try store.actionCodes.count()
  }

  /// How many messages the database holds, whether their codes are live or not (tests only).
  func storedMailCount() throws -> Int {
    Int(
      try store.connection.use { try $0.rows("SELECT count(*) FROM mail") }
        .first?.integer(0) ?? 0)
  }
}

extension EmbeddedDatabase {
}

extension EmbeddedStore {
  /// The database of the data folder `folder`, opened on its own (tests only).
  static func opened(in folder: URL) throws -> EmbeddedStore {
    try EmbeddedStore(.file(folder.appendingPathComponent(fileName)))
  }
}
