import Foundation
import SignInKit
import SignInStorage

/// The steps pending in a store's tenant (texted codes, second factors, passkey ceremonies,
/// identity-provider sign-ins waiting for a link), each under the SHA-256 of its key, with the
/// outbox's text messages.
///
/// - Concurrency: not `Sendable`; used by the store's owner (the backend's actor).
struct PendingStepRows {
  let store: EmbeddedStore

  // A pending step's key (a `sessionInfo`, an `mfaPendingCredential`, a passkey challenge) is a
  // bearer secret: whoever has it finishes the step. Rows keep its SHA-256 only, as refresh
  // tokens and action codes are kept.

  /// The pending step of `kind` under `key`, if it has not expired by `now`.
  func step<Step: Decodable>(_ kind: String, key: String, now: Date) throws -> Step? {
    let found: [Step] = try store.records(
      "SELECT record FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND key = ? AND expires_at > ?",
      [.text(kind), .text(StoredSecret.digest(key)), .real(now.timeIntervalSince1970)])
    return found.first
  }

  /// How many live steps of `kind` `uid` has waiting.
  func count(_ kind: String, uid: String, now: Date) throws -> Int {
    try store.rows(
      "SELECT count(*) FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND uid = ? "
        + "AND expires_at > ?",
      [.text(kind), .text(uid), .real(now.timeIntervalSince1970)]
    ).first?.integer(0).map(Int.init) ?? 0
  }

  /// Records a new pending step of `kind` for `uid` under `key`, and the text message that
  /// carries its code when the outbox keeps it (deleted with the step). Expired steps go first;
  /// then the account's oldest steps of the kind beyond `perAccount - 1`.
  ///
  /// - Returns: `false`, storing nothing, when `total` steps of the kind are pending already.
  func add(
    _ kind: String, key: String, uid: String, expiresAt: Date, record: some Encodable, now: Date,
    perAccount: Int, total: Int, text: PhoneVerificationCode? = nil
  ) throws -> Bool {
    try store.transaction {
      try store.run(
        "DELETE FROM pending_second_factors WHERE tenant = :tenant AND expires_at <= ?",
        [.real(now.timeIntervalSince1970)])
      try store.run(
        "DELETE FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND uid = ? AND id NOT IN "
          + "(SELECT id FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND uid = ? "
          + "ORDER BY id DESC LIMIT ?)",
        [.text(kind), .text(uid), .text(kind), .text(uid), .integer(Int64(max(0, perAccount - 1)))])
      let count =
        try store.rows("SELECT count(*) FROM pending_second_factors WHERE tenant = :tenant AND kind = ?", [.text(kind)])
        .first?.integer(0) ?? 0
      guard count < total else { return false }
      try store.run(
        "INSERT INTO pending_second_factors (tenant, kind, key, uid, expires_at, record) "
          + "VALUES (:tenant, ?, ?, ?, ?, ?)",
        [
          .text(kind), .text(StoredSecret.digest(key)), .text(uid), .real(expiresAt.timeIntervalSince1970),
          .text(try store.json(record)),
        ])
      if let text {
        try store.run(
          "INSERT INTO texts (tenant, pending_id, recipient, record) VALUES (:tenant, last_insert_rowid(), ?, ?)",
          [.text(text.phoneNumber), .text(try store.json(text))])
      }
      return true
    }
  }

  /// Replaces the record of the pending step of `kind` under `key`.
  func update(_ kind: String, key: String, record: some Encodable) throws {
    try store.run(
      "UPDATE pending_second_factors SET record = ? WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(try store.json(record)), .text(kind), .text(StoredSecret.digest(key))])
  }

  /// Spends the pending step of `kind` under `key`, inside the caller's transaction: another
  /// process (or call) that read the same step before it was spent finds it gone here.
  ///
  /// - Throws: `INVALID_SESSION_INFO` (the step's `gone` message) when it was spent already.
  func consume(_ kind: String, key: String, gone: @autoclosure () -> AuthError) throws {
    let removed = try store.changes(
      "DELETE FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(kind), .text(StoredSecret.digest(key))])
    guard removed > 0 else { throw gone() }
  }

  func delete(_ kind: String, key: String) throws {
    try store.run(
      "DELETE FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(kind), .text(StoredSecret.digest(key))])
  }

  /// The text messages in the outbox whose steps are still pending at `now`, oldest first.
  func texts(liveAt now: Date) throws -> [PhoneVerificationCode] {
    try store.records(
      "SELECT t.record FROM texts t JOIN pending_second_factors p ON p.id = t.pending_id "
        + "WHERE t.tenant = :tenant AND p.expires_at > ? ORDER BY t.id", [.real(now.timeIntervalSince1970)])
  }
}
