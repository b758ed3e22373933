import Foundation

// SQLite's types and constants: the SDK's `SQLite3` module on Apple platforms, the system's
// header (`CSQLite`) elsewhere. Only this file calls SQLite's C API, through SQLiteLibrary.
#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// One connection to an SQLite database: a file, or an in-memory database that runs the same
/// code.
///
/// A file is opened in WAL mode with `synchronous = FULL`, so a committed transaction survives a
/// crash or a power loss, and several processes can use it at once: readers never wait, and a
/// writer waits for another writer up to ``busyTimeout`` before failing with
/// ``SQLiteError/Reason/busy``. Foreign keys are enforced. Statements are prepared once per SQL
/// text and kept.
///
/// ```swift
/// let database = try SQLiteDatabase(.file(folder.appendingPathComponent("accounts.sqlite")))
/// try database.transaction {
///   try database.run("INSERT INTO accounts (uid, email) VALUES (?, ?)", [.text(uid), .text(email)])
/// }
/// ```
///
/// - Concurrency: not `Sendable`; one owner (an actor) uses it, one call at a time.
package final class SQLiteDatabase {
  /// Where the database lives.
  package enum Location: Sendable, Equatable {
    case file(URL)
    /// A private in-memory database, gone when the connection closes.
    case memory
  }

  /// The file's path, or empty in memory.
  package let path: String
  /// How long a write waits for another connection's write lock.
  package let busyTimeout: Duration
  private let sqlite: SQLiteLibrary
  private let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]
  private var transactionDepth = 0
  private var isOpen = true
  /// What opening found wrong and worked around, in words that say what to do: a damaged
  /// write-ahead log whose later transactions SQLite could not read (a copy of the log is kept
  /// beside the database). Empty for a sound file.
  package private(set) var warnings: [String] = []

  /// Opens (or creates) the database.
  ///
  /// - Throws: ``SQLiteError`` — ``SQLiteError/Reason/cannotOpen`` or
  ///   ``SQLiteError/Reason/readOnly`` when the file cannot be opened for writing,
  ///   ``SQLiteError/Reason/damaged`` when it is not an SQLite database (it is left untouched).
  /// - Parameter readOnly: open an existing file for reading only, as SQLite does by itself for a
  ///   file this user cannot write; every change then fails with ``SQLiteError/Reason/readOnly``.
  /// Creates the file at `path` readable by its owner only (0600), or takes group and others'
  /// bits off one that exists: the accounts are as private as the signing key beside them.
  /// SQLite gives the `-wal` and `-shm` files the database's permissions. A failure here is left
  /// to the open that follows, which says what is wrong.
  private static func makeOwnerOnly(_ path: String) {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      #if canImport(Glibc)
        Glibc.close(descriptor)
      #else
        Darwin.close(descriptor)
      #endif
      return
    }
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & 0o077 != 0, status.st_uid == geteuid() {
      chmod(path, status.st_mode & 0o700)
    }
  }

  package init(_ location: Location, busyTimeout: Duration = .seconds(5), readOnly: Bool = false)
    throws(SQLiteError)
  {
    sqlite = try SQLiteLibrary.shared()
    var opened: OpaquePointer?
    let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch location {
    case .file(let url): path = url.path
    case .memory: path = ""
    }
    if !readOnly, !path.isEmpty { Self.makeOwnerOnly(path) }
    // The log as it was before SQLite replays it, to see afterwards whether all of it was read.
    let logBeforeOpening = path.isEmpty || readOnly ? nil : WriteAheadLogFrames.read(path + "-wal")
    let status = sqlite.openV2(path.isEmpty ? ":memory:" : path, &opened, flags, nil)
    guard let opened else {
      throw SQLiteError(.cannotOpen, message: "\(path) cannot be opened: SQLite is out of memory.")
    }
    handle = opened
    self.busyTimeout = busyTimeout
    guard status == SQLITE_OK else {
      let error = SQLiteError(
        code: status, path: path, detail: Self.message(sqlite.errmsg(opened)),
        systemError: sqlite.systemErrno(opened))
      _ = sqlite.closeV2(opened)
      throw error
    }
    _ = sqlite.extendedResultCodes(handle, 1)
    let milliseconds =
      busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    _ = sqlite.busyTimeout(handle, Int32(clamping: milliseconds))
    do throws(SQLiteError) {
      // The first statement reads the header: a file that is not a database fails here.
      if case .file = location, !readOnly {
        let mode = try rows("PRAGMA journal_mode = WAL").first?.text(0)
        guard mode?.lowercased() == "wal" else {
          throw SQLiteError(
            .cannotOpen,
            message: "\(path) could not be switched to write-ahead logging (it reports \(mode ?? "nothing")). "
              + "Check that its folder is writable for this user.")
        }
      }
      try execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
      if case .file = location, !readOnly, let log = logBeforeOpening {
        warnings = try droppedTransactions(since: log)
      }
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  // MARK: - Running SQL

  /// Runs one or more statements that take no values (schema, pragmas).
  package func execute(_ sql: String) throws(SQLiteError) {
    try checkOpen()
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite.exec(handle, sql, nil, nil, &message)
    defer { sqlite.free(message) }
    guard status == SQLITE_OK else {
      throw SQLiteError(
        code: status, path: path, detail: message.map { String(cString: $0) } ?? lastMessage,
        systemError: sqlite.systemErrno(handle))
    }
  }

  /// Runs one statement that changes data; returns how many rows it changed. `values` go to
  /// the `?` parameters in order, `named` to the named ones (`:tenant`) wherever they appear.
  @discardableResult
  package func run(
    _ sql: String, _ values: [SQLiteValue] = [], named: [String: SQLiteValue] = [:]
  ) throws(SQLiteError) -> Int {
    let statement = try prepared(sql, values, named: named)
    defer { _ = sqlite.reset(statement) }
    let status = sqlite.step(statement)
    guard status == SQLITE_DONE || status == SQLITE_ROW else { throw error(status) }
    return Int(sqlite.changes(handle))
  }

  /// Runs one query and returns every row it gives; `values` and `named` as in ``run(_:_:named:)``.
  package func rows(
    _ sql: String, _ values: [SQLiteValue] = [], named: [String: SQLiteValue] = [:]
  ) throws(SQLiteError) -> [SQLiteRow] {
    let statement = try prepared(sql, values, named: named)
    defer { _ = sqlite.reset(statement) }
    var rows: [SQLiteRow] = []
    while true {
      let status = sqlite.step(statement)
      if status == SQLITE_DONE { return rows }
      guard status == SQLITE_ROW else { throw error(status) }
      let count = sqlite.columnCount(statement)
      rows.append(SQLiteRow(values: (0..<count).map { column(statement, $0) }))
    }
  }

  /// Runs `body` in one write transaction: every change it makes is committed together, or
  /// none is when it throws. The write lock is taken at the start (`BEGIN IMMEDIATE`), waiting
  /// up to ``busyTimeout`` for another writer, so a transaction never fails halfway for lack of
  /// it. A nested call is a savepoint of the outer transaction: when it throws, only its own
  /// changes are undone, and they are committed with the outer one.
  ///
  /// - Throws: ``SQLiteError/Reason/busy`` when the lock did not come in time, or whatever
  ///   `body` or the commit throws (after rolling back).
  @discardableResult
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    if transactionDepth > 0 {
      let savepoint = "nested\(transactionDepth)"
      try execute("SAVEPOINT \(savepoint)")
      transactionDepth += 1
      defer { transactionDepth -= 1 }
      do {
        let result = try body()
        try execute("RELEASE \(savepoint)")
        return result
      } catch {
        try? execute("ROLLBACK TO \(savepoint)")
        try? execute("RELEASE \(savepoint)")
        throw error
      }
    }
    try execute("BEGIN IMMEDIATE")
    transactionDepth = 1
    defer { transactionDepth = 0 }
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      // A failed COMMIT (a full disk) may have rolled back already; rolling back again is a
      // harmless error.
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Closes the connection; later calls fail. Closing twice does nothing.
  package func close() {
    guard isOpen else { return }
    isOpen = false
    for statement in statements.values { _ = sqlite.finalize(statement) }
    statements = [:]
    _ = sqlite.closeV2(handle)
  }

  // MARK: - Private

  /// Whether SQLite, replaying `log` (the write-ahead log as it was before this connection opened),
  /// stopped before transactions it holds: a frame of it is damaged. If so, the log is copied
  /// aside before any write can reuse it, and the warning says how much was dropped and where the
  /// copy is. A passive checkpoint reports how many frames SQLite accepted; it waits for no one.
  private func droppedTransactions(since log: WriteAheadLogFrames) throws(SQLiteError) -> [String] {
    func accepted() throws(SQLiteError) -> Int {
      Int(try rows("PRAGMA wal_checkpoint(PASSIVE)").first?.integer(1) ?? 0)
    }
    var frames = try accepted()
    guard log.commits.contains(where: { $0 > frames }) else { return [] }
    // Another process may be between writing a commit frame and publishing it: take the write
    // lock once, which waits for it, and ask again.
    try execute("BEGIN IMMEDIATE")
    try execute("ROLLBACK")
    frames = try accepted()
    let dropped = log.commits.filter { $0 > frames }
    // A log started over meanwhile (new salts) says nothing about the old one.
    guard !dropped.isEmpty, WriteAheadLogFrames.read(path + "-wal")?.salts == log.salts else { return [] }
    let name = URL(fileURLWithPath: path).lastPathComponent
    var copy = path + "-wal.damaged"
    var number = 1
    while FileManager.default.fileExists(atPath: copy) {
      number += 1
      copy = path + "-wal.damaged-\(number)"
    }
    let kept = (try? FileManager.default.copyItem(atPath: path + "-wal", toPath: copy)) != nil
    return [
      "\(name)-wal, the database's write-ahead log, is damaged after frame \(frames): SQLite could not read the "
        + "\(dropped.count) transaction\(dropped.count == 1 ? "" : "s") committed after it, so "
        + "\(dropped.count == 1 ? "it is" : "they are") not in the database. "
        + (kept
          ? "The damaged log was copied to \(copy); restore from a backup if those changes matter."
          : "The damaged log could not be copied aside; stop now and copy \(name)-wal yourself if those changes "
            + "matter, before anything writes to the folder.")
    ]
  }

  private func checkOpen() throws(SQLiteError) {
    guard !isOpen else { return }
    throw SQLiteError.closed(path)
  }

  private var lastMessage: String { Self.message(sqlite.errmsg(handle)) }

  private static func message(_ text: UnsafePointer<CChar>?) -> String {
    text.map { String(cString: $0) } ?? "no message"
  }

  private func error(_ status: Int32) -> SQLiteError {
    SQLiteError(
      code: sqlite.extendedErrcode(handle), path: path, detail: lastMessage, systemError: sqlite.systemErrno(handle)
    )
  }

  /// The statement for `sql`, prepared once, with `values` bound to its `?` parameters in order
  /// and `named` to its named ones.
  private func prepared(
    _ sql: String, _ values: [SQLiteValue], named: [String: SQLiteValue]
  ) throws(SQLiteError) -> OpaquePointer {
    try checkOpen()
    let statement: OpaquePointer
    if let cached = statements[sql] {
      statement = cached
    } else {
      var made: OpaquePointer?
      let status = sqlite.prepareV3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil)
      guard status == SQLITE_OK, let made else { throw error(status) }
      statements[sql] = made
      statement = made
    }
    _ = sqlite.clearBindings(statement)
    var positional = values.makeIterator()
    let count = sqlite.bindParameterCount(statement)
    var index: Int32 = 1
    while index <= count {
      defer { index += 1 }
      let value: SQLiteValue?
      if let name = sqlite.bindParameterName(statement, index) {
        value = named[String(cString: name)]
      } else {
        value = positional.next()
      }
      guard let value else {
        throw SQLiteError(.other, message: "Parameter \(index) of \(sql) has no value; nothing was run.")
      }
      try bind(value, at: index, in: statement)
    }
    guard positional.next() == nil else {
      throw SQLiteError(.other, message: "\(sql) takes fewer values than it was given; nothing was run.")
    }
    return statement
  }

  private func bind(_ value: SQLiteValue, at index: Int32, in statement: OpaquePointer) throws(SQLiteError) {
    let status: Int32
    switch value {
    case .null: status = sqlite.bindNull(statement, index)
    case .integer(let number): status = sqlite.bindInt64(statement, index, number)
    case .real(let number): status = sqlite.bindDouble(statement, index, number)
    case .text(let text):
      // With its length in bytes, so a NUL inside the text is kept.
      status = sqlite.bindText(statement, index, text, Int32(clamping: text.utf8.count), copyBoundBytes)
    case .blob(let bytes):
      status = bytes.withUnsafeBytes { buffer in
        sqlite.bindBlob64(
          statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
          copyBoundBytes)
      }
    }
    guard status == SQLITE_OK else { throw error(status) }
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite.columnType(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite.columnInt64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite.columnDouble(statement, index))
    case SQLITE_TEXT:
      let count = Int(sqlite.columnBytes(statement, index))
      guard count > 0, let bytes = sqlite.columnText(statement, index) else { return .text("") }
      return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite.columnBytes(statement, index))
      guard count > 0, let bytes = sqlite.columnBlob(statement, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }
}

/// Tells SQLite to copy a bound buffer before `sqlite3_bind_*` returns (`SQLITE_TRANSIENT`, a C
/// macro Swift cannot import).
private let copyBoundBytes = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteError {
  /// The error for SQLite result `code` on the database at `path`, with SQLite's `detail` and
  /// the system's `errno` of the failure, if any.
  init(code: Int32, path: String, detail: String, systemError: Int32 = 0) {
    let name = path.isEmpty ? "The in-memory database" : path
    if systemError == EMFILE || systemError == ENFILE, [SQLITE_CANTOPEN, SQLITE_IOERR].contains(code & 0xFF) {
      self.init(
        .cannotOpen, code: code,
        message: "\(name) cannot be opened: this process has as many files open as "
          + (systemError == EMFILE ? "its limit (ulimit -n) allows" : "the system allows")
          + "; nothing was changed. Close what you do not need (projects of signin serve each hold one "
          + "database), or raise the limit, then try again.")
      return
    }
    switch code & 0xFF {
    case SQLITE_BUSY, SQLITE_LOCKED:
      self.init(
        .busy, code: code,
        message: "\(name) stayed locked by another process past the busy timeout; nothing was written. "
          + "Try again; if it keeps happening, stop the other program that uses this data folder.")
    case SQLITE_FULL:
      self.init(
        .full, code: code,
        message: "The disk holding \(name) is full; nothing was written. Free some space and try again.")
    case SQLITE_READONLY, SQLITE_PERM:
      self.init(
        .readOnly, code: code,
        message: "\(name) cannot be written (\(detail)); nothing was written. Make the data folder and its "
          + "files writable for this user, or choose another folder.")
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      self.init(
        .damaged, code: code,
        message: "\(name) is damaged or is not a SignInKit database (\(detail)). It was left as it is; "
          + "move it away to start empty, or restore it from a backup.")
    case SQLITE_CANTOPEN:
      self.init(
        .cannotOpen, code: code,
        message: "\(name) cannot be opened (\(detail)); nothing was changed. Check that it is a file and that "
          + "its folder exists and is writable for this user.")
    case SQLITE_CONSTRAINT:
      self.init(.constraint, code: code, message: "\(name) refused a change: \(detail).")
    default:
      self.init(
        .other, code: code, message: "\(name) failed: \(detail) (SQLite code \(code)). Nothing was written.")
    }
  }
}
