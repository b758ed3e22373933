import Foundation
import SignInKit
import SignInStorage

/// The action codes of a store's tenant, by digest, with the mail that carries each.
///
/// - Concurrency: not `Sendable`; used by the store's owner (the backend's actor).
struct ActionCodeRows {
  let store: EmbeddedStore

  func code(digest: String) throws -> EmbeddedStore.ActionCode? {
    let found: [EmbeddedStore.ActionCode] = try store.records(
      "SELECT record FROM action_codes WHERE tenant = :tenant AND digest = ?", [.text(digest)])
    return found.first
  }

  /// Records a code by its digest, and the message that carries it.
  func insert(_ code: EmbeddedStore.ActionCode, digest: String, mail: MailboxMessage?) throws {
    try store.transaction {
      try store.run(
        "INSERT INTO action_codes (digest, tenant, uid, kind, email, expires_at, record) "
          + "VALUES (?, :tenant, ?, ?, ?, ?, ?)",
        [
          .text(digest), .text(code.uid), .text(code.kind), .text(code.email),
          .real(code.expiresAt.timeIntervalSince1970), .text(try store.json(code)),
        ])
      guard let mail else { return }
      try store.run(
        "INSERT INTO mail (tenant, code_digest, recipient, record) VALUES (:tenant, ?, ?, ?)",
        [.text(digest), .text(mail.to), .text(try store.json(mail))])
    }
  }

  /// Deletes a code and the mail that carries it.
  ///
  /// - Returns: whether it was there to delete: `false` when another call or process spent it.
  @discardableResult
  func delete(digest: String) throws -> Bool {
    try store.changes("DELETE FROM action_codes WHERE tenant = :tenant AND digest = ?", [.text(digest)]) > 0
  }

  /// The digests of the live codes of `kind` for `email`, oldest first.
  func digests(email: String, kind: String) throws -> [String] {
    try store.rows(
      "SELECT digest FROM action_codes WHERE tenant = :tenant AND email = ? AND kind = ? ORDER BY expires_at, id",
      [.text(email), .text(kind)]
    ).compactMap { $0.text(0) }
  }

  func count() throws -> Int {
    Int(
      try store.rows("SELECT count(*) FROM action_codes WHERE tenant = :tenant")
        .first?.integer(0) ?? 0)
  }

  /// Deletes the codes that expired by `now` (and so their mail), then keeps the newest
  /// messages within the limits: `perAddress` for each address, `total` in all.
  func purge(now: Date, mailPerAddress perAddress: Int, mailTotal total: Int) throws {
    try store.transaction {
      try store.run(
        "DELETE FROM action_codes WHERE tenant = :tenant AND expires_at <= ?", [.real(now.timeIntervalSince1970)])
      try store.run(
        "DELETE FROM mail WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
          + "(PARTITION BY recipient ORDER BY id DESC) AS newer FROM mail WHERE tenant = :tenant) WHERE newer > ?)",
        [.integer(Int64(perAddress))])
      try store.run(
        "DELETE FROM mail WHERE tenant = :tenant AND id NOT IN "
          + "(SELECT id FROM mail WHERE tenant = :tenant ORDER BY id DESC LIMIT ?)", [.integer(Int64(total))])
    }
  }

  /// The messages whose codes can still be used at `now`, oldest first; to `recipient` only
  /// when given.
  func mail(to recipient: String?, liveAt now: Date) throws -> [MailboxMessage] {
    let live =
      "SELECT m.record FROM mail m JOIN action_codes c ON c.digest = m.code_digest "
      + "WHERE m.tenant = :tenant AND c.expires_at > ?"
    guard let recipient else { return try store.records(live + " ORDER BY m.id", [.real(now.timeIntervalSince1970)]) }
    return try store.records(
      live + " AND m.recipient = ? ORDER BY m.id", [.real(now.timeIntervalSince1970), .text(recipient)])
  }
}
