import Foundation

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
    try store.settings(kind)
  }

  /// The setting of `kind` under `key`, if there is one.
  package func setting(_ kind: String, key: String) throws -> Data? {
    try store.setting(kind, key: key)
  }

  /// Stores `value` under a new `key` unless `limit` settings of the kind exist; counted and
  /// stored in one transaction, so two processes cannot pass the limit together.
  package func addSetting(_ kind: String, key: String, value: Data, limit: Int) throws -> SettingAddition {
    try store.addSetting(kind, key: key, value: value, limit: limit)
  }

  /// Changes the setting under `key` with `change`, read and written in one transaction.
  ///
  /// - Returns: the new value, or `nil` (nothing changed) when there is no setting under `key`.
  package func changeSetting(
    _ kind: String, key: String, _ change: @Sendable (Data) throws -> Data
  ) throws -> Data? {
    try store.transaction {
      guard let value = try store.setting(kind, key: key) else { return nil }
      let changed = try change(value)
      try store.replaceSetting(kind, key: key, value: changed)
      return changed
    }
  }

  /// Removes the setting under `key`; `false` when there was none.
  package func removeSetting(_ kind: String, key: String) throws -> Bool {
    try store.removeSetting(kind, key: key)
  }

  /// Deletes everything this backend's tenant holds: accounts, codes, mail, throttle and
  /// settings, in one transaction. `signin serve` calls it when the tenant is deleted, so a
  /// tenant made again under the same id starts empty.
  package func deleteTenantData() throws {
    try store.deleteTenant()
  }
}
