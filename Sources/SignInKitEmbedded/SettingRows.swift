import Foundation
import SignInKit
import SignInStorage

/// The settings a server keeps beside a store's accounts (tenants, provider configurations,
/// the project's own), by kind and key.
///
/// - Concurrency: not `Sendable`; used by the store's owner (the backend's actor).
struct SettingRows {
  let store: EmbeddedStore

  /// Every setting of `kind`, in key order.
  func all(_ kind: String) throws -> [(key: String, value: Data)] {
    try store.rows("SELECT key, value FROM settings WHERE tenant = :tenant AND kind = ? ORDER BY key", [.text(kind)])
      .compactMap { row in row.text(0).map { ($0, Data((row.text(1) ?? "").utf8)) } }
  }

  /// The setting of `kind` under `key`, if there is one.
  func value(_ kind: String, key: String) throws -> Data? {
    try store.rows(
      "SELECT value FROM settings WHERE tenant = :tenant AND kind = ? AND key = ?", [.text(kind), .text(key)]
    )
    .first?.text(0).map { Data($0.utf8) }
  }

  /// Stores `value` under a new `key`, inside the caller's transaction or one of its own.
  ///
  /// - Returns: `.exists` when the key has a value (it is kept), `.full` when `limit`
  ///   settings of the kind exist; `.added` otherwise.
  func add(_ kind: String, key: String, value: Data, limit: Int) throws -> SettingAddition {
    try store.transaction {
      guard try self.value(kind, key: key) == nil else { return .exists }
      let count =
        try store.rows("SELECT count(*) FROM settings WHERE tenant = :tenant AND kind = ?", [.text(kind)]).first?
        .integer(0)
        ?? 0
      guard count < limit else { return .full }
      try store.run(
        "INSERT INTO settings (tenant, kind, key, value) VALUES (:tenant, ?, ?, ?)",
        [.text(kind), .text(key), .text(String(decoding: value, as: UTF8.self))])
      return .added
    }
  }

  /// Replaces the value under an existing `key`.
  func replace(_ kind: String, key: String, value: Data) throws {
    try store.run(
      "UPDATE settings SET value = ? WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(String(decoding: value, as: UTF8.self)), .text(kind), .text(key)])
  }

  /// Removes the setting under `key`; `false` when there was none.
  func remove(_ kind: String, key: String) throws -> Bool {
    try store.changes(
      "DELETE FROM settings WHERE tenant = :tenant AND kind = ? AND key = ?", [.text(kind), .text(key)]) > 0
  }
}
