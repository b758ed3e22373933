import Foundation
import SignInFoundation
import SignInKit
import SignInWire

/// What ``EmbeddedBackend/addSetting(_:key:value:limit:)`` did.
///
/// - Concurrency: `Sendable` value.
package enum SettingAddition: Sendable, Equatable {
  case added
  /// The key had a value already; it is kept.
  case exists
  /// The kind holds its limit already; nothing was stored.
  case full
}

extension EmbeddedBackend {
  /// Settings a server keeps beside the accounts, as JSON by kind and key, in the same
  /// database: `signin serve`'s tenants and provider configurations. Every call reads or writes
  /// the database, so several processes on one folder see each other's changes at once.

  /// Every setting of `kind`, in key order.
  package func settings(_ kind: String) throws -> [(key: String, value: Data)] {
    try store.settings.all(kind)
  }

  /// The setting of `kind` under `key`, if there is one.
  package func setting(_ kind: String, key: String) throws -> Data? {
    try store.settings.value(kind, key: key)
  }

  /// Stores `value` under a new `key` unless `limit` settings of the kind exist; counted and
  /// stored in one transaction, so two processes cannot pass the limit together.
  package func addSetting(_ kind: String, key: String, value: Data, limit: Int) throws -> SettingAddition {
    try Self.checkSetting(value)
    return try store.settings.add(kind, key: key, value: value, limit: limit)
  }

  /// Changes the setting under `key` with `change`, read and written in one transaction.
  ///
  /// - Returns: the new value, or `nil` (nothing changed) when there is no setting under `key`.
  package func changeSetting(
    _ kind: String, key: String, _ change: @Sendable (Data) throws -> Data
  ) throws -> Data? {
    try store.transaction {
      guard let value = try store.settings.value(kind, key: key) else { return nil }
      let changed = try change(value)
      try Self.checkSetting(changed)
      try store.settings.replace(kind, key: key, value: changed)
      return changed
    }
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

  /// Removes the setting under `key`; `false` when there was none.
  package func removeSetting(_ kind: String, key: String) throws -> Bool {
    try store.settings.remove(kind, key: key)
  }

  /// Deletes everything this backend's tenant holds: accounts, codes, mail, throttle and
  /// settings, in one transaction. `signin serve` calls it when the tenant is deleted, so a
  /// tenant made again under the same id starts empty.
  package func deleteTenantData() throws {
    try store.deleteTenant()
  }
}
