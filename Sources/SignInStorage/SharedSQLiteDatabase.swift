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
/// ```swift
/// let shared = try SharedSQLiteDatabase(.file(url))
/// let count = try shared.use { database in try database.rows("SELECT count(*) FROM accounts") }
/// ```
///
/// - Concurrency: `Sendable`. It is `@unchecked` because the compiler cannot see the lock:
///   `database` is only touched inside ``use(_:)``, while `mutex` is held. A use must not
///   suspend; SQLite's own calls never do.
package final class SharedSQLiteDatabase: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let database: SQLiteDatabase
  /// The file's path, or empty in memory.
  package let path: String
  /// How long a write waits for another connection's write lock.
  package let busyTimeout: Duration
  /// What opening found wrong and worked around (``SQLiteDatabase/warnings``).
  package let warnings: [String]

  /// Opens (or creates) the database, as ``SQLiteDatabase/init(_:busyTimeout:readOnly:)`` does.
  package init(_ location: SQLiteDatabase.Location, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
    let database = try SQLiteDatabase(location, busyTimeout: busyTimeout)
    path = database.path
    self.busyTimeout = busyTimeout
    warnings = database.warnings
    self.database = database
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    database.close()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the connection, holding it against every other owner until `body` returns.
  package func use<Result, Failure: Error>(
    _ body: (SQLiteDatabase) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(database)
  }

  /// Closes the connection for every owner; their later uses fail as on a closed database.
  package func close() { use { $0.close() } }
}
