import Foundation
import SignInCrypto
import SignInKit
import SignInStorage

/// The single-use secrets and what carries them: action codes by digest with their mail, and
/// pending steps (texted codes, second factors, passkey ceremonies) by their keys' digests, with
/// the outbox's text messages.
extension EmbeddedStore {
  func actionCode(digest: String) throws -> ActionCode? {
    let found: [ActionCode] = try records(
      "SELECT record FROM action_codes WHERE tenant = :tenant AND digest = ?", [.text(digest)])
    return found.first
  }

  /// Records a code by its digest, and the message that carries it.
  func insertActionCode(_ code: ActionCode, digest: String, mail: MailboxMessage?) throws {
    try transaction {
      try run(
        "INSERT INTO action_codes (digest, tenant, uid, kind, email, expires_at, record) "
          + "VALUES (?, :tenant, ?, ?, ?, ?, ?)",
        [
          .text(digest), .text(code.uid), .text(code.kind), .text(code.email),
          .real(code.expiresAt.timeIntervalSince1970), .text(try json(code)),
        ])
      guard let mail else { return }
      try run(
        "INSERT INTO mail (tenant, code_digest, recipient, record) VALUES (:tenant, ?, ?, ?)",
        [.text(digest), .text(mail.to), .text(try json(mail))])
    }
  }

  /// Deletes a code and the mail that carries it.
  ///
  /// - Returns: whether it was there to delete: `false` when another call or process spent it.
  @discardableResult
  func deleteActionCode(digest: String) throws -> Bool {
    try changes("DELETE FROM action_codes WHERE tenant = :tenant AND digest = ?", [.text(digest)]) > 0
  }

  /// The digests of the live codes of `kind` for `email`, oldest first.
  func actionCodeDigests(email: String, kind: String) throws -> [String] {
    try rows(
      "SELECT digest FROM action_codes WHERE tenant = :tenant AND email = ? AND kind = ? ORDER BY expires_at, id",
      [.text(email), .text(kind)]
    ).compactMap { $0.text(0) }
  }

  func actionCodeCount() throws -> Int {
    Int(
      try rows("SELECT count(*) FROM action_codes WHERE tenant = :tenant")
        .first?.integer(0) ?? 0)
  }

  /// Deletes the codes that expired by `now` (and so their mail), then keeps the newest
  /// messages within the limits: `perAddress` for each address, `total` in all.
  func purge(now: Date, mailPerAddress perAddress: Int, mailTotal total: Int) throws {
    try transaction {
      try run("DELETE FROM action_codes WHERE tenant = :tenant AND expires_at <= ?", [.real(now.timeIntervalSince1970)])
      try run(
        "DELETE FROM mail WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER "
          + "(PARTITION BY recipient ORDER BY id DESC) AS newer FROM mail WHERE tenant = :tenant) WHERE newer > ?)",
        [.integer(Int64(perAddress))])
      try run(
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
    guard let recipient else { return try records(live + " ORDER BY m.id", [.real(now.timeIntervalSince1970)]) }
    return try records(
      live + " AND m.recipient = ? ORDER BY m.id", [.real(now.timeIntervalSince1970), .text(recipient)])
  }

  // MARK: - Pending steps

  // A pending step's key (a `sessionInfo`, an `mfaPendingCredential`, a passkey challenge) is a
  // bearer secret: whoever has it finishes the step. Rows keep its SHA-256 only, as refresh
  // tokens and action codes are kept.

  /// The pending step of `kind` under `key`, if it has not expired by `now`.
  func pending<Step: Decodable>(_ kind: String, key: String, now: Date) throws -> Step? {
    let found: [Step] = try records(
      "SELECT record FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND key = ? AND expires_at > ?",
      [.text(kind), .text(Self.digest(key)), .real(now.timeIntervalSince1970)])
    return found.first
  }

  /// How many live steps of `kind` `uid` has waiting.
  func pendingCount(_ kind: String, uid: String, now: Date) throws -> Int {
    try rows(
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
  func addPending(
    _ kind: String, key: String, uid: String, expiresAt: Date, record: some Encodable, now: Date,
    perAccount: Int, total: Int, text: PhoneVerificationCode? = nil
  ) throws -> Bool {
    try transaction {
      try run(
        "DELETE FROM pending_second_factors WHERE tenant = :tenant AND expires_at <= ?",
        [.real(now.timeIntervalSince1970)])
      try run(
        "DELETE FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND uid = ? AND id NOT IN "
          + "(SELECT id FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND uid = ? "
          + "ORDER BY id DESC LIMIT ?)",
        [.text(kind), .text(uid), .text(kind), .text(uid), .integer(Int64(max(0, perAccount - 1)))])
      let count =
        try rows("SELECT count(*) FROM pending_second_factors WHERE tenant = :tenant AND kind = ?", [.text(kind)])
        .first?.integer(0) ?? 0
      guard count < total else { return false }
      try run(
        "INSERT INTO pending_second_factors (tenant, kind, key, uid, expires_at, record) "
          + "VALUES (:tenant, ?, ?, ?, ?, ?)",
        [
          .text(kind), .text(Self.digest(key)), .text(uid), .real(expiresAt.timeIntervalSince1970),
          .text(try json(record)),
        ])
      if let text {
        try run(
          "INSERT INTO texts (tenant, pending_id, recipient, record) VALUES (:tenant, last_insert_rowid(), ?, ?)",
          [.text(text.phoneNumber), .text(try json(text))])
      }
      return true
    }
  }

  /// Replaces the record of the pending step of `kind` under `key`.
  func updatePending(_ kind: String, key: String, record: some Encodable) throws {
    try run(
      "UPDATE pending_second_factors SET record = ? WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(try json(record)), .text(kind), .text(Self.digest(key))])
  }

  /// Spends the pending step of `kind` under `key`, inside the caller's transaction: another
  /// process (or call) that read the same step before it was spent finds it gone here.
  ///
  /// - Throws: `INVALID_SESSION_INFO` (the step's `gone` message) when it was spent already.
  func consumePending(_ kind: String, key: String, gone: @autoclosure () -> AuthError) throws {
    let removed = try changes(
      "DELETE FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(kind), .text(Self.digest(key))])
    guard removed > 0 else { throw gone() }
  }

  func deletePending(_ kind: String, key: String) throws {
    try run(
      "DELETE FROM pending_second_factors WHERE tenant = :tenant AND kind = ? AND key = ?",
      [.text(kind), .text(Self.digest(key))])
  }

  private static func digest(_ key: String) -> String {
    Crypto.sha256Hex(Array(key.utf8))
  }

  /// The text messages in the outbox whose steps are still pending at `now`, oldest first.
  func texts(liveAt now: Date) throws -> [PhoneVerificationCode] {
    try records(
      "SELECT t.record FROM texts t JOIN pending_second_factors p ON p.id = t.pending_id "
        + "WHERE t.tenant = :tenant AND p.expires_at > ? ORDER BY t.id", [.real(now.timeIntervalSince1970)])
  }
}
