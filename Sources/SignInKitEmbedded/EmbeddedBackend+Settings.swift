import Foundation
import SignInFoundation
import SignInKit
import SignInWire

/// What ``SettingRows/add(_:key:value:limit:)`` did.
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
  /// Runs `body` on the settings a server keeps beside the accounts, as JSON by kind and key, in
  /// the same database: `signin serve`'s tenants and provider configurations. Every call reads
  /// or writes the database, so several processes on one folder see each other's changes at once.
  package func settings<T: Sendable>(_ body: @Sendable (SettingRows) throws -> T) throws -> T {
    try body(store.settings)
  }

  /// Deletes everything this backend's tenant holds: accounts, codes, mail, throttle and
  /// settings, in one transaction. `signin serve` calls it when the tenant is deleted, so a
  /// tenant made again under the same id starts empty.
  package func deleteTenantData() throws {
    try store.deleteTenant()
  }
}
