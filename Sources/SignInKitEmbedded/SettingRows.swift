import Foundation
import SignInFoundation
import SignInKit
import SignInStorage

/// The settings a server keeps beside a store's accounts (tenants, provider configurations,
/// the project's own), by kind and key.
///
/// - Concurrency: not `Sendable`; used by the store's owner (the backend's actor).
package struct SettingRows {
  let store: EmbeddedStore

  /// Every setting of `kind`, in key order.
  package func all(_ kind: String) throws -> [(key: String, value: Data)] {
    try store.rows("SELECT key, value FROM settings WHERE tenant = :tenant AND kind = ? ORDER BY key", [.text(kind)])
      .compactMap { row in row.text(0).map { ($0, Data((row.text(1) ?? "").utf8)) } }
  }

  /// The setting of `kind` under `key`, if there is one.
  package func value(_ kind: String, key: String) throws -> Data? {
    try store.rows(
      "SELECT value FROM settings WHERE tenant = :tenant AND kind = ? AND key = ?", [.text(kind), .text(key)]
    )
    .first?.text(0).map { Data($0.utf8) }
  }

  /// Stores `value` under a new `key` unless `limit` settings of the kind exist; counted and
  /// stored in one transaction (the caller's or one of its own), so two processes cannot pass
  /// the limit together.
  ///
  /// - Throws: `AuthError` (`INVALID_ARGUMENT`) for a value past ``settingLimit`` or a field's limit.
  /// - Returns: `.exists` when the key has a value (it is kept), `.full` when `limit`
  ///   settings of the kind exist; `.added` otherwise.
  package func add(_ kind: String, key: String, value: Data, limit: Int) throws -> SettingAddition {
    try Self.checkSetting(value)
    return try store.transaction {
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

  /// Changes the setting under `key` with `change`, read and written in one transaction.
  ///
  /// - Returns: the new value, or `nil` (nothing changed) when there is no setting under `key`.
  package func change(_ kind: String, key: String, _ change: (Data) throws -> Data) throws -> Data? {
    try store.transaction {
      guard let value = try value(kind, key: key) else { return nil }
      let changed = try change(value)
      try Self.checkSetting(changed)
      try replace(kind, key: key, value: changed)
      return changed
    }
  }

  /// Removes the setting under `key`; `false` when there was none.
  package func remove(_ kind: String, key: String) throws -> Bool {
    try store.changes(
      "DELETE FROM settings WHERE tenant = :tenant AND kind = ? AND key = ?", [.text(kind), .text(key)]) > 0
  }

  /// The most one setting may hold, in bytes of JSON.
  static let settingLimit = 256 * 1024

  /// Refuses a setting past ``settingLimit`` bytes, or with a string past its field's limit:
  /// a certificate (`x509Certificate`, at most 16 KB each and ``FieldLimits/certificatesPerConfig``
  /// of them), a display name (256 characters), any other value (2,048 bytes: ids, issuers,
  /// URLs, client ids and secrets). Whatever the API that sent it, nothing unbounded is kept.
  static func checkSetting(_ value: Data) throws {
    guard value.count <= settingLimit else {
      throw AuthError(
        firebase: .invalidArgument,
        message: "The configuration has \(value.count) bytes; it may have at most "
          + "\(settingLimit). Send fewer or shorter values.")
    }
    guard let json = try? JSONDecoder().decode(JSONValue.self, from: value) else { return }
    try checkStrings(in: json, field: nil)
  }

  private static func checkStrings(in value: JSONValue, field: String?) throws {
    switch value {
    case .string(let text):
      switch field {
      case "x509Certificate": try FieldLimits.checked(text, .certificate)
      case "displayName": try FieldLimits.checked(text, .tenantName)
      default: try FieldLimits.checked(text, .configValue, named: field)
      }
    case .array(let items):
      if field == "idpCertificates", items.count > FieldLimits.certificatesPerConfig {
        throw AuthError(
          firebase: .invalidArgument,
          message: "idpCertificates has \(items.count) certificates; at most \(FieldLimits.certificatesPerConfig).")
      }
      for item in items { try checkStrings(in: item, field: field) }
    case .object(let members):
      for (name, member) in members { try checkStrings(in: member, field: name) }
    default: break
    }
  }
}
