#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One ``SQLiteDatabase`` connection that several owners use in turn: a project's backend and
/// the backends of its tenants, whose rows live in the same file, so that a tenant costs no file
/// descriptors of its own.
///
/// Each use holds a recursive POSIX mutex for as long as it runs, so one owner's transaction is
/// never interleaved with another's statements, and a use may call further uses inside it on the
/// same thread (a transaction's body reading through the same helpers).
///
/// The connection opens when it is made, or, with ``Opening/onFirstUse(report:)``, at the first
/// ``open()``: a program that may never touch its data (a command-line tool that starts and
/// leaves) then pays nothing for it at launch.
///
/// ```swift
/// let shared = try SharedSQLiteDatabase(.file(url))
/// let count = try shared.use { database in try database.rows("SELECT count(*) FROM accounts") }
/// ```
///
/// - Concurrency: `Sendable`. It is `@unchecked` because the compiler cannot see the lock:
///   `state` is only touched while `mutex` is held. A use must not
///   suspend; SQLite's own calls never do.
package final class SharedSQLiteDatabase: @unchecked Sendable {
  /// When the connection opens.
  package enum Opening: Sendable {
    /// When it is made, which throws if it cannot open.
    case now
    /// At the first ``open()``, which throws if it cannot; `report` hears what opening found
    /// wrong and worked around (``warnings``), when anything was.
    case onFirstUse(report: @Sendable ([String]) -> Void)
  }

  private enum State {
    case waiting
    case open(SQLiteDatabase)
    /// Closed before it was ever opened.
    case closed
  }

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State
  private let location: SQLiteDatabase.Location
  private let prepare: (SQLiteDatabase) throws -> Void
  private let opening: Opening
  /// The file's path, or empty in memory.
  package let path: String
  /// How long a write waits for another connection's write lock.
  package let busyTimeout: Duration

  /// Makes the connection, and opens (or creates) the database now unless `opening` says to
  /// wait, as ``SQLiteDatabase/init(_:busyTimeout:readOnly:)`` does; `prepare` then runs on it
  /// once (a schema migration), and a connection it fails on is closed again.
  ///
  /// - Throws: with ``Opening/now``, what opening or `prepare` threw; nothing otherwise.
  package init(
    _ location: SQLiteDatabase.Location, busyTimeout: Duration = .seconds(5), opening: Opening = .now,
    prepare: @escaping (SQLiteDatabase) throws -> Void = { _ in }
  ) throws {
    self.location = location
    self.busyTimeout = busyTimeout
    self.prepare = prepare
    self.opening = opening
    switch location {
    case .file(let url): path = url.path
    case .memory: path = ""
    }
    state = .waiting
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    if case .now = opening { try open() }
  }

  deinit {
    if case .open(let database) = state { database.close() }
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// What opening found wrong and worked around (``SQLiteDatabase/warnings``); empty until the
  /// connection opens.
  package var warnings: [String] {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    guard case .open(let database) = state else { return [] }
    return database.warnings
  }

  /// Opens the connection if it is still waiting for its first use, and runs `prepare` on it.
  /// Does nothing once it is open. A failure leaves it waiting, so the next call tries again
  /// (after the file was moved aside, say).
  ///
  /// - Throws: ``SQLiteError`` when the database cannot be opened, or was closed before it ever
  ///   was; what `prepare` threw.
  package func open() throws {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    switch state {
    case .open: return
    case .closed:
      throw SQLiteError.closed(path)
    case .waiting:
      let database = try SQLiteDatabase(location, busyTimeout: busyTimeout)
      do {
        try prepare(database)
      } catch {
        database.close()
        throw error
      }
      state = .open(database)
      if case .onFirstUse(let report) = opening, !database.warnings.isEmpty { report(database.warnings) }
    }
  }

  /// Runs `body` with the connection, holding it against every other owner until `body` returns.
  ///
  /// - Precondition: ``open()`` succeeded (or the connection opened when it was made).
  package func use<Result, Failure: Error>(
    _ body: (SQLiteDatabase) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    guard case .open(let database) = state else {
      preconditionFailure("SharedSQLiteDatabase.use(_:) before open() succeeded")
    }
    return try body(database)
  }

  /// Closes the connection for every owner; their later uses fail as on a closed database, and
  /// one that never opened will not.
  package func close() {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    switch state {
    case .open(let database): database.close()
    case .waiting: state = .closed
    case .closed: break
    }
  }
}
