import Foundation
import SignInKit
import SignInStorage

/// Identity-provider authorization codes already used to revoke a token, by digest, each kept
/// until it expires so that it works once.
///
/// - Concurrency: not `Sendable`; used by the store's owner (the backend's actor).
struct SpentProviderCodeRows {
  let store: EmbeddedStore

  /// Whether the provider code with `digest` was spent and has not expired by `now`.
  func isSpent(digest: String, now: Date) throws -> Bool {
    try !store.rows(
      "SELECT 1 FROM used_provider_codes WHERE tenant = :tenant AND digest = ? AND expires_at > ?",
      [.text(digest), .real(now.timeIntervalSince1970)]
    ).isEmpty
  }

  /// Records a spent provider code until `expiresAt`, dropping the ones expired by `now`.
  func spend(digest: String, until expiresAt: Date, now: Date) throws {
    try store.transaction {
      try store.run(
        "DELETE FROM used_provider_codes WHERE tenant = :tenant AND expires_at <= ?", [.real(now.timeIntervalSince1970)]
      )
      try store.run(
        "INSERT OR REPLACE INTO used_provider_codes (tenant, digest, expires_at) VALUES (:tenant, ?, ?)",
        [.text(digest), .real(expiresAt.timeIntervalSince1970)])
    }
  }
}
