import Foundation
import SignInStorage
import SignInTestSupport
import Testing

@Suite struct SQLiteDatabaseTests {
  static func file(in directory: TemporaryDirectory) -> SQLiteDatabase.Location {
    .file(directory.url.appendingPathComponent("test.sqlite"))
  }

  static func makeTable(_ database: SQLiteDatabase) throws {
    try database.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, data BLOB)")
  }

  static func names(_ database: SQLiteDatabase) throws -> [String] {
    try database.rows("SELECT name FROM items ORDER BY id").compactMap { $0.text(0) }
  }

  @Test func opensAFileDurablyInWriteAheadLogMode() throws {
    let directory = try TemporaryDirectory()
    let database = try SQLiteDatabase(Self.file(in: directory))
    #expect(try database.rows("PRAGMA journal_mode").first?.text(0) == "wal")
    // 2 is FULL: the log is synced at every commit.
    #expect(try database.rows("PRAGMA synchronous").first?.integer(0) == 2)
    #expect(try database.rows("PRAGMA foreign_keys").first?.integer(0) == 1)
  }

  @Test(arguments: [false, true]) func valuesComeBackAsTheyWereStored(inMemory: Bool) throws {
    let directory = try TemporaryDirectory()
    let database = try SQLiteDatabase(inMemory ? .memory : Self.file(in: directory))
    try database.execute("CREATE TABLE v (a, b, c, d, e, f)")
    let values: [SQLiteValue] = [
      .null, .integer(Int64.min), .real(-0.5), .text("Åda ✓ \u{0}end"), .blob([0, 1, 0, 255]), .blob([]),
    ]
    try database.run("INSERT INTO v VALUES (?, ?, ?, ?, ?, ?)", values)
    let row = try #require(try database.rows("SELECT a, b, c, d, e, f FROM v").first)
    // Every byte is kept, a NUL inside text too.
    #expect(row.values == values)
  }

  @Test(arguments: [false, true]) func aTransactionThatThrowsLeavesNothingBehind(inMemory: Bool) throws {
    struct Abandoned: Error {}
    let directory = try TemporaryDirectory()
    let database = try SQLiteDatabase(inMemory ? .memory : Self.file(in: directory))
    try Self.makeTable(database)
    try database.run("INSERT INTO items (name) VALUES ('kept')")
    #expect(throws: Abandoned.self) {
      try database.transaction {
        try database.run("INSERT INTO items (name) VALUES ('half')")
        try database.run("UPDATE items SET name = 'changed' WHERE name = 'kept'")
        throw Abandoned()
      }
    }
    #expect(try Self.names(database) == ["kept"])
  }

  @Test func aConstraintIsATypedErrorAndTheTransactionRollsBack() throws {
    let database = try SQLiteDatabase(.memory)
    try Self.makeTable(database)
    try database.run("INSERT INTO items (name) VALUES ('ada')")
    let error = try #require(throws: SQLiteError.self) {
      try database.transaction {
        try database.run("INSERT INTO items (name) VALUES ('grace')")
        try database.run("INSERT INTO items (name) VALUES ('ada')")
      }
    }
    #expect(error.reason == .constraint)
    #expect(try Self.names(database) == ["ada"])
  }

  @Test func whatOneConnectionCommitsTheOtherSeesOnItsNextRead() throws {
    let directory = try TemporaryDirectory()
    let writer = try SQLiteDatabase(Self.file(in: directory))
    let reader = try SQLiteDatabase(Self.file(in: directory))
    try Self.makeTable(writer)
    #expect(try Self.names(reader) == [])
    try writer.transaction { try writer.run("INSERT INTO items (name) VALUES ('ada')") }
    #expect(try Self.names(reader) == ["ada"])
  }

  @Test func aWriterWaitsForAnotherThenFailsBusyAndWritesNothing() throws {
    let directory = try TemporaryDirectory()
    let holder = try SQLiteDatabase(Self.file(in: directory))
    try Self.makeTable(holder)
    let waiter = try SQLiteDatabase(Self.file(in: directory), busyTimeout: .milliseconds(50))
    try holder.transaction {
      try holder.run("INSERT INTO items (name) VALUES ('holder')")
      // The holder keeps the write lock for as long as this closure runs, however slow the
      // machine is: the waiter cannot get it.
      let error = try #require(throws: SQLiteError.self) {
        try waiter.transaction { try waiter.run("INSERT INTO items (name) VALUES ('waiter')") }
      }
      #expect(error.reason == .busy)
      #expect(error.message.contains("nothing was written"))
      // A reader does not wait for a writer.
      #expect(try Self.names(waiter) == [])
    }
    try waiter.transaction { try waiter.run("INSERT INTO items (name) VALUES ('waiter')") }
    #expect(try Self.names(holder) == ["holder", "waiter"])
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItIs() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("test.sqlite")
    let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: url)
    let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(.file(url)) }
    #expect(error.reason == .damaged)
    #expect(error.message.contains(url.path))
    #expect(error.message.contains("left as it is"))
    #expect(try Data(contentsOf: url) == garbage)
  }

  @Test func aFullDiskFailsTheTransactionAndKeepsWhatWasCommitted() throws {
    let directory = try TemporaryDirectory()
    let database = try SQLiteDatabase(Self.file(in: directory))
    try Self.makeTable(database)
    try database.run("INSERT INTO items (name) VALUES ('before')")
    // The page limit stands in for the disk: past it, SQLite reports SQLITE_FULL as for a disk.
    let pages = try #require(try database.rows("PRAGMA page_count").first?.integer(0))
    _ = try database.rows("PRAGMA max_page_count = \(pages + 4)")
    let error = try #require(throws: SQLiteError.self) {
      try database.transaction {
        for index in 0..<64 {
          try database.run(
            "INSERT INTO items (name, data) VALUES (?, ?)",
            [.text("big \(index)"), .blob(Array(repeating: 7, count: 4096))])
        }
      }
    }
    #expect(error.reason == .full)
    #expect(error.message.contains("Free some space"))
    #expect(try Self.names(database) == ["before"])
  }

  @Test func aReadOnlyDatabaseRefusesChangesWithTheFix() throws {
    let directory = try TemporaryDirectory()
    let writable = try SQLiteDatabase(Self.file(in: directory))
    try Self.makeTable(writable)
    try writable.run("INSERT INTO items (name) VALUES ('ada')")
    let readOnly = try SQLiteDatabase(Self.file(in: directory), readOnly: true)
    let error = try #require(throws: SQLiteError.self) {
      try readOnly.transaction { try readOnly.run("INSERT INTO items (name) VALUES ('grace')") }
    }
    #expect(error.reason == .readOnly)
    #expect(error.message.contains("writable"))
    #expect(try Self.names(readOnly) == ["ada"])
  }

  @Test func aFolderThatDoesNotExistCannotHoldADatabase() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("missing/test.sqlite")
    let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(.file(url)) }
    #expect(error.reason == .cannotOpen)
    #expect(error.message.contains("folder exists"))
  }

  @Test func aNestedTransactionThatThrowsUndoesOnlyItsOwnChanges() throws {
    struct Refused: Error {}
    let database = try SQLiteDatabase(.memory)
    try Self.makeTable(database)
    try database.transaction {
      try database.run("INSERT INTO items (name) VALUES ('outer')")
      #expect(throws: Refused.self) {
        try database.transaction {
          try database.run("INSERT INTO items (name) VALUES ('inner')")
          throw Refused()
        }
      }
      try database.transaction { try database.run("INSERT INTO items (name) VALUES ('second inner')") }
    }
    #expect(try Self.names(database) == ["outer", "second inner"])
  }

  @Test func aNestedTransactionIsUndoneWithTheOuterOne() throws {
    struct Abandoned: Error {}
    let database = try SQLiteDatabase(.memory)
    try Self.makeTable(database)
    #expect(throws: Abandoned.self) {
      try database.transaction {
        try database.transaction { try database.run("INSERT INTO items (name) VALUES ('inner')") }
        throw Abandoned()
      }
    }
    #expect(try Self.names(database) == [])
  }

  @Test func aClosedConnectionRefusesCallsAndClosesOnce() throws {
    let database = try SQLiteDatabase(.memory)
    try Self.makeTable(database)
    database.close()
    database.close()
    let error = try #require(throws: SQLiteError.self) { try Self.names(database) }
    #expect(error.message.contains("was closed"))
  }
}
