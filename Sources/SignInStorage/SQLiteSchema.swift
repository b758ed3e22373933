/// A database's schema as the list of migrations that build it, oldest first: migration `n`
/// takes the schema from version `n - 1` to `n`, and the file records its version in
/// `PRAGMA user_version`.
///
/// ```swift
/// let schema = SQLiteSchema(migrations: [
///   "CREATE TABLE accounts (uid TEXT PRIMARY KEY, email TEXT UNIQUE)",
///   "ALTER TABLE accounts ADD COLUMN phone TEXT",
/// ])
/// try schema.migrate(database)
/// ```
///
/// - Concurrency: `Sendable` value.
package struct SQLiteSchema: Sendable {
  package let migrations: [String]

  package init(migrations: [String]) { self.migrations = migrations }

  /// The version this schema builds.
  package var version: Int { migrations.count }

  /// Brings `database` to ``version``: each missing migration runs in its own transaction with
  /// the version it reaches, so a crash leaves the file at one version or the next. Several
  /// processes may migrate at once; the write lock makes one do it and the others find it done.
  ///
  /// - Throws: ``SQLiteError/Reason/newerSchema`` when the file is from a newer version (it is
  ///   left as it is), or what a migration throws.
  package func migrate(_ database: SQLiteDatabase) throws {
    while true {
      let done = try database.transaction { () throws -> Bool in
        let current = try Self.version(of: database)
        guard current <= version else {
          throw SQLiteError(
            .newerSchema,
            message: "\(database.path) was written by a newer version of SignInKit (schema \(current); this "
              + "version reads up to \(version)). Nothing was changed; open it with the newer version, or move "
              + "it away to start empty.")
        }
        guard current < version else { return true }
        try database.execute(migrations[current])
        try database.execute("PRAGMA user_version = \(current + 1)")
        return false
      }
      if done { return }
    }
  }

  /// The version recorded in `database`; 0 for a new file.
  package static func version(of database: SQLiteDatabase) throws(SQLiteError) -> Int {
    Int(try database.rows("PRAGMA user_version").first?.integer(0) ?? 0)
  }
}
