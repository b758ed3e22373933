import Foundation
import SignInCrypto
import SignInKit
import SignInStorage
import SignInWire

/// Everything `EmbeddedBackend` keeps, in one SQLite database: accounts (indexed by uid, email
/// and provider uid), refresh-token digests, action-code digests with the mail that carries
/// them, and spent identity-provider codes. A file in the data folder, or SQLite's in-memory
/// database, so both modes run the same code.
///
/// Every lookup goes through an index, so an operation costs the same with a thousand accounts
/// or a hundred thousand. Several processes may use one file: what one commits, the others read
/// on their next call. A change runs inside ``transaction(_:)``: all of it is stored, or none.
///
/// An account is one row: the columns that are looked up (`uid`, `email`) and the rest of
/// its record (profile, password hash, flags, custom claims, second factors) as JSON; its
/// provider links are also rows of `provider_links`, indexed by provider and provider uid.
///
/// Every row names its tenant (empty for the project's own), and every statement is scoped to
/// this store's ``tenant`` (`:tenant`): a tenant's store shares its project's connection
/// (``init(sharing:tenant:)``) and so its file, and sees none of the project's rows, nor the
/// project any of its.
///
/// - Concurrency: not `Sendable`; owned by one `EmbeddedBackend` actor. The connection it may
///   share with other stores is `Sendable` and locks around each use.
final class EmbeddedStore {
  typealias Account = EmbeddedDatabase.Account
  typealias RefreshToken = EmbeddedDatabase.RefreshToken
  typealias ActionCode = EmbeddedDatabase.ActionCode

  /// Accounts decoded lately, by their stored JSON (``remember(_:as:)``).
  private var decodedAccounts: [[UInt8]: Account] = [:]
  private static let decodedAccountLimit = 256

  /// The database file's name in the data folder.
  static let fileName = "accounts.sqlite"

  /// The connection, shared with the project's tenants when this is one of theirs.
  let connection: SharedSQLiteDatabase
  /// The tenant whose rows this store reads and writes: empty for the project's own. Every
  /// statement names it as `:tenant`.
  let tenant: String
  /// The values every statement may name: `:tenant`, this store's tenant.
  private let scope: [String: SQLiteValue]
  /// Whether this store may close the connection: only the project's owns it.
  private let ownsConnection: Bool
  private var isClosed = false
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()
  private let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }()

  /// Opens (or creates) the database and brings its schema up to date, now or, as `opening`
  /// says, at the first call that reads or writes.
  ///
  /// - Throws: `AuthError/Code/storage` saying what is wrong with the file and what to do; a
  ///   damaged file or one from a newer version is left as it is. With
  ///   `SharedSQLiteDatabase/Opening/onFirstUse(report:)`, that call throws it instead.
  init(
    _ location: SQLiteDatabase.Location, busyTimeout: Duration = .seconds(5),
    opening: SharedSQLiteDatabase.Opening = .now
  ) throws {
    let connection = try Self.reportingStorage {
      try SharedSQLiteDatabase(location, busyTimeout: busyTimeout, opening: opening, prepare: Self.schema.migrate)
    }
    self.connection = connection
    tenant = ""
    scope = [":tenant": .text("")]
    ownsConnection = true
  }

  /// The rows of `tenant` in the database `project` has open: no file, no descriptor of its own.
  init(sharing project: SharedSQLiteDatabase, tenant: String) {
    connection = project
    self.tenant = tenant
    scope = [":tenant": .text(tenant)]
    ownsConnection = false
  }

  /// Runs `body` in one transaction: all its changes are stored, or none when it throws.
  /// `onRollback` undoes what `body` did outside the database when the transaction does not
  /// commit.
  func transaction<T>(_ body: () throws -> T, onRollback: () -> Void = {}) throws -> T {
    do {
      try checkOpen()
      return try Self.reportingStorage { try connection.use { database in try database.transaction(body) } }
    } catch {
      onRollback()
      throw error
    }
  }

  /// Closes the database; a tenant's store only stops using the project's.
  func close() {
    isClosed = true
    if ownsConnection { connection.close() }
  }

  // MARK: - Accounts

  func account(uid: String) throws -> Account? {
    try accounts("SELECT record FROM accounts WHERE tenant = :tenant AND uid = ?", [.text(uid)]).first
  }

  /// The account `uid`, or `USER_NOT_FOUND` when it is gone.
  func existingAccount(uid: String) throws -> Account {
    guard let account = try account(uid: uid) else {
      throw AuthError(firebase: .userNotFound)
    }
    return account
  }

  /// The account with `email` (already lowercased).
  func account(email: String) throws -> Account? {
    try accounts("SELECT record FROM accounts WHERE tenant = :tenant AND email = ?", [.text(email)]).first
  }

  /// The account with the phone number `phone` (E.164).
  func account(phone: String) throws -> Account? {
    try accounts("SELECT record FROM accounts WHERE tenant = :tenant AND phone = ?", [.text(phone)]).first
  }

  /// Whether an account other than `uid` has the phone number `phone`.
  func phoneIsTaken(_ phone: String, byOtherThan uid: String? = nil) throws -> Bool {
    guard let owner = try account(phone: phone) else { return false }
    return owner.uid != uid
  }

  /// Whether an account other than `uid` has `email`.
  func emailIsTaken(_ email: String, byOtherThan uid: String? = nil) throws -> Bool {
    guard let owner = try account(email: email) else { return false }
    return owner.uid != uid
  }

  /// The account linked to `rawID` at `provider`.
  func account(provider: ProviderID, rawID: String) throws -> Account? {
    try accounts(
      "SELECT a.record FROM provider_links l JOIN accounts a ON a.tenant = l.tenant AND a.uid = l.uid "
        + "WHERE l.tenant = :tenant AND l.provider = ? AND l.raw_id = ?",
      [.text(provider.rawValue), .text(rawID)]
    ).first
  }

  /// The accounts linked to `provider`, by their id there, at most `limit`.
  func accounts(linkedTo provider: ProviderID, limit: Int) throws -> [Account] {
    try accounts(
      "SELECT a.record FROM provider_links l JOIN accounts a ON a.tenant = l.tenant AND a.uid = l.uid "
        + "WHERE l.tenant = :tenant AND l.provider = ? "
        + "ORDER BY l.raw_id LIMIT ?",
      [.text(provider.rawValue), .integer(Int64(limit))])
  }

  /// The account that holds the passkey `credentialID` (base64url).
  func account(passkey credentialID: String) throws -> Account? {
    try accounts(
      "SELECT a.record FROM passkeys p JOIN accounts a ON a.tenant = p.tenant AND a.uid = p.uid "
        + "WHERE p.tenant = :tenant AND p.credential_id = ?",
      [.text(credentialID)]
    ).first
  }

  /// Stores `account` (new or changed) with its provider links.
  func save(_ account: Account) throws {
    try transaction {
      let record = try json(account)
      try run(
        "INSERT INTO accounts (tenant, uid, email, phone, record) VALUES (:tenant, ?, ?, ?, ?) "
          + "ON CONFLICT (tenant, uid) DO UPDATE "
          + "SET email = excluded.email, phone = excluded.phone, record = excluded.record",
        [.text(account.uid), .text(account.email), .text(account.phoneNumber), .text(record)])
      try run("DELETE FROM provider_links WHERE tenant = :tenant AND uid = ?", [.text(account.uid)])
      for link in account.federated {
        try run(
          "INSERT OR REPLACE INTO provider_links (tenant, provider, raw_id, uid, email) VALUES (:tenant, ?, ?, ?, ?)",
          [.text(link.providerID.rawValue), .text(link.rawID), .text(account.uid), .text(link.email)])
      }
      // Rows of passkeys still enrolled keep their counters; a credential of another account
      // fails the primary key: one passkey, one account.
      let enrolled = Set((account.passkeys ?? []).map(\.credentialID))
      let stored = Set(
        try rows("SELECT credential_id FROM passkeys WHERE tenant = :tenant AND uid = ?", [.text(account.uid)])
          .compactMap { $0.text(0) })
      for removed in stored.subtracting(enrolled) {
        try run("DELETE FROM passkeys WHERE tenant = :tenant AND credential_id = ?", [.text(removed)])
      }
      for passkey in account.passkeys ?? [] where !stored.contains(passkey.credentialID) {
        try run(
          "INSERT INTO passkeys (tenant, credential_id, uid, sign_count) VALUES (:tenant, ?, ?, ?)",
          [.text(passkey.credentialID), .text(account.uid), .integer(Int64(passkey.signCount))])
      }
    }
  }

  /// The signature counter last accepted for the passkey `credentialID`, `nil` when no account
  /// has it. Read inside the transaction that records the next use.
  func passkeySignCount(_ credentialID: String) throws -> UInt32? {
    try rows(
      "SELECT sign_count FROM passkeys WHERE tenant = :tenant AND credential_id = ?", [.text(credentialID)]
    ).first?.integer(0).map { UInt32(clamping: $0) }
  }

  /// Records a use of the passkey `credentialID` whose counter went from `old` to `new`.
  ///
  /// - Returns: `false`, changing nothing, when the counter no longer stands at `old`: another
  ///   call or process accepted a use meanwhile.
  func recordPasskeyUse(_ credentialID: String, from old: UInt32, to new: UInt32, at date: Date) throws -> Bool {
    try changes(
      "UPDATE passkeys SET sign_count = ?, last_used_at = ? "
        + "WHERE tenant = :tenant AND credential_id = ? AND sign_count = ?",
      [.integer(Int64(new)), .real(date.timeIntervalSince1970), .text(credentialID), .integer(Int64(old))]) > 0
  }

  /// Reads the account `uid`, lets `change` edit it, and stores it; `USER_NOT_FOUND` when it
  /// is gone. Returns the stored account.
  @discardableResult
  func updateAccount(uid: String, _ change: (inout Account) throws -> Void) throws -> Account {
    try transaction {
      var account = try existingAccount(uid: uid)
      try change(&account)
      try save(account)
      return account
    }
  }

  /// Deletes the account with its links, refresh tokens, action codes and their mail.
  func deleteAccount(uid: String) throws {
    try transaction {
      try run("DELETE FROM action_codes WHERE tenant = :tenant AND uid = ?", [.text(uid)])
      try run("DELETE FROM accounts WHERE tenant = :tenant AND uid = ?", [.text(uid)])
    }
  }

  /// Deletes every account with all it holds (links, tokens, codes and their mail, pending
  /// second factors), in one transaction. Spent provider codes stay spent.
  func deleteAllAccounts() throws {
    try transaction {
      try run("DELETE FROM login_failures WHERE tenant = :tenant", [])
      try run("DELETE FROM pending_second_factors WHERE tenant = :tenant", [])
      try run("DELETE FROM action_codes WHERE tenant = :tenant", [])
      try run("DELETE FROM accounts WHERE tenant = :tenant", [])
    }
  }

  /// Deletes everything of this store's tenant: its accounts with all they hold, its throttle,
  /// spent provider codes and settings. What deleting a tenant leaves behind: nothing.
  func deleteTenant() throws {
    try transaction {
      try deleteAllAccounts()
      try run("DELETE FROM used_provider_codes WHERE tenant = :tenant", [])
      try run("DELETE FROM settings WHERE tenant = :tenant", [])
    }
  }

  /// Up to `limit` accounts in uid order, after `uid` when given.
  func accounts(after uid: String?, limit: Int) throws -> [Account] {
    try accounts(
      "SELECT record FROM accounts WHERE tenant = :tenant AND uid > ? ORDER BY uid LIMIT ?",
      [.text(uid ?? ""), .integer(Int64(limit))])
  }

  /// The accounts with these uids, emails, phone numbers or IdP identities, each once, in uid
  /// order.
  func accounts(
    uids: [String], emails: [String], phones: [String] = [], federated: [(ProviderID, String)] = []
  ) throws -> [Account] {
    var found: [String: Account] = [:]
    for uid in uids { if let account = try account(uid: uid) { found[account.uid] = account } }
    for email in emails { if let account = try account(email: email) { found[account.uid] = account } }
    for phone in phones { if let account = try account(phone: phone) { found[account.uid] = account } }
    for (provider, rawID) in federated {
      if let account = try account(provider: provider, rawID: rawID) { found[account.uid] = account }
    }
    return found.values.sorted { $0.uid < $1.uid }
  }

  /// The distinct emails of the accounts, sorted; with `provider`, the emails they use there.
  func emails(provider: ProviderID?) throws -> [String] {
    let found: [SQLiteRow]
    if let provider {
      found = try rows(
        "SELECT DISTINCT email FROM provider_links WHERE tenant = :tenant AND provider = ? AND email IS NOT NULL "
          + "ORDER BY email",
        [.text(provider.rawValue)])
    } else {
      found = try rows("SELECT email FROM accounts WHERE tenant = :tenant AND email IS NOT NULL ORDER BY email")
    }
    return found.compactMap { $0.text(0) }
  }

  // MARK: - Refresh tokens

  func refreshToken(digest: String) throws -> RefreshToken? {
    let found: [RefreshToken] = try records(
      "SELECT record FROM refresh_tokens WHERE tenant = :tenant AND digest = ?", [.text(digest)])
    return found.first
  }

  func insertRefreshToken(_ token: RefreshToken, digest: String) throws {
    try run(
      "INSERT INTO refresh_tokens (digest, tenant, uid, record) VALUES (?, :tenant, ?, ?)",
      [.text(digest), .text(token.uid), .text(try json(token))])
  }

  func deleteRefreshToken(digest: String) throws {
    try run("DELETE FROM refresh_tokens WHERE tenant = :tenant AND digest = ?", [.text(digest)])
  }

  /// Counts one refresh of the session the token started, in the statement that writes it, so
  /// two processes counting at once both count.
  func countRefresh(digest: String) throws {
    try run(
      "UPDATE refresh_tokens SET record = json_set(record, '$.refreshes', COALESCE(json_extract(record, '$.refreshes'), 0) + 1) "
        + "WHERE tenant = :tenant AND digest = ?", [.text(digest)])
  }

  /// The refreshes of `uid`'s sessions, all told.
  func refreshCount(uid: String) throws -> Int {
    let tokens: [RefreshToken] = try records(
      "SELECT record FROM refresh_tokens WHERE tenant = :tenant AND uid = ?", [.text(uid)])
    return tokens.reduce(0) { $0 + ($1.refreshes ?? 0) }
  }

  /// Deletes the refresh tokens of `uid`; with `keeping`, only those it returns `false` for.
  func deleteRefreshTokens(uid: String, keeping: ((RefreshToken) -> Bool)? = nil) throws {
    guard let keeping else {
      try run("DELETE FROM refresh_tokens WHERE tenant = :tenant AND uid = ?", [.text(uid)])
      return
    }
    let tokens = try rows("SELECT digest, record FROM refresh_tokens WHERE tenant = :tenant AND uid = ?", [.text(uid)])
    for row in tokens {
      guard let digest = row.text(0), let token: RefreshToken = try decode(row.blob(1)), !keeping(token) else {
        continue
      }
      try deleteRefreshToken(digest: digest)
    }
  }

  // MARK: - Tables by family

  /// The action codes and their mail.
  var actionCodes: ActionCodeRows { ActionCodeRows(store: self) }
  /// The pending steps and the outbox's texts.
  var pendingSteps: PendingStepRows { PendingStepRows(store: self) }
  /// The settings kept beside the accounts.
  var settings: SettingRows { SettingRows(store: self) }
  /// Identity-provider codes spent already.
  var spentProviderCodes: SpentProviderCodeRows { SpentProviderCodeRows(store: self) }

  // MARK: - Private

  func run(_ sql: String, _ values: [SQLiteValue]) throws {
    _ = try changes(sql, values)
  }

  /// Runs one change in this store's scope (`:tenant`); returns how many rows it changed.
  func changes(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
    try checkOpen()
    return try Self.storage { () throws(SQLiteError) in
      try connection.use { (database) throws(SQLiteError) in try database.run(sql, values, named: scope) }
    }
  }

  /// Runs one query in this store's scope (`:tenant`).
  func rows(_ sql: String, _ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
    try checkOpen()
    return try Self.storage { () throws(SQLiteError) in
      try connection.use { (database) throws(SQLiteError) in try database.rows(sql, values, named: scope) }
    }
  }

  /// Refuses a call on a closed store, as SQLite refuses one on a closed connection, and opens
  /// a connection that waits for its first use.
  private func checkOpen() throws {
    guard isClosed else { return try Self.reportingStorage { try connection.open() } }
    throw AuthError(.storage, SQLiteError.closed(connection.path).message)
  }

  private func accounts(_ sql: String, _ values: [SQLiteValue]) throws -> [Account] {
    try rows(sql, values).compactMap { row in
      guard let bytes = row.blob(0) else { return nil }
      if let known = decodedAccounts[bytes] { return known }
      let account: Account? = try decode(bytes)
      remember(account, as: bytes)
      return account
    }
  }

  /// Keeps `account` as the decoding of `bytes`. A call reads its account several times (the
  /// lookup, the change, the token's claims), and JSON decoding is most of what a read costs.
  /// Keyed by the stored bytes themselves, it can never hand out a stale account: a change by
  /// this process or another one stores other bytes. Only decodings are kept, never an account
  /// as it was saved: its dates do not survive the round trip through JSON to the last bit.
  private func remember(_ account: Account?, as bytes: [UInt8]) {
    guard let account else { return }
    if decodedAccounts.count >= Self.decodedAccountLimit { decodedAccounts.removeAll(keepingCapacity: true) }
    decodedAccounts[bytes] = account
  }

  func records<Record: Decodable>(_ sql: String, _ values: [SQLiteValue] = []) throws -> [Record] {
    try rows(sql, values).compactMap { try decode($0.blob(0)) }
  }

  func json(_ value: some Encodable) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  private func decode<Record: Decodable>(_ bytes: [UInt8]?) throws -> Record? {
    guard let bytes else { return nil }
    do {
      return try decoder.decode(Record.self, from: Data(bytes))
    } catch {
      throw AuthError(
        .storage,
        "\(connection.path.isEmpty ? "The in-memory database" : connection.path) holds a \(Record.self) this version "
          + "cannot read (\(error)). Nothing was changed; open the folder with the version that wrote it.")
    }
  }

  /// Runs `operation`, reporting an SQLite failure as `AuthError/Code/storage` with its message.
  static func storage<T>(_ operation: () throws(SQLiteError) -> T) throws(AuthError) -> T {
    do {
      return try operation()
    } catch {
      throw AuthError(.storage, error.message)
    }
  }

  /// ``storage(_:)`` for an operation that may also throw other errors (a rule's refusal),
  /// which pass through.
  static func reportingStorage<T>(_ operation: () throws -> T) throws -> T {
    do {
      return try operation()
    } catch let error as SQLiteError {
      throw AuthError(.storage, error.message)
    }
  }
}
