import Foundation
import SignInStorage
import SignInTestSupport
import Testing

/// Review N13: SQLite replays a write-ahead log up to its first damaged frame and drops every
/// transaction after it without a word. Opening now says so, and keeps a copy of the log.
@Suite struct WriteAheadLogTests {
  /// A database in `directory` whose log holds the table and `count` inserts, one transaction
  /// each, copied with its log into `copy` while the connection was still open (as a crash
  /// leaves it). `beforeCopy` runs on the connection first.
  static func loggedCopy(
    inserts count: Int, into copy: TemporaryDirectory, beforeCopy: (SQLiteDatabase) throws -> Void = { _ in }
  ) throws {
    let directory = try TemporaryDirectory()
    let database = try SQLiteDatabase(SQLiteDatabaseTests.file(in: directory))
    try SQLiteDatabaseTests.makeTable(database)
    for number in 0..<count {
      try database.transaction { try database.run("INSERT INTO items (name) VALUES (?)", [.text("item \(number)")]) }
    }
    try beforeCopy(database)
    for suffix in ["", "-wal"] {
      try FileManager.default.copyItem(
        atPath: directory.url.appendingPathComponent("test.sqlite" + suffix).path,
        toPath: copy.url.appendingPathComponent("test.sqlite" + suffix).path)
    }
    database.close()
  }

  /// Flips one byte in the page of frame `number` (1-based) of the log in `directory`.
  static func damageFrame(_ number: Int, in directory: TemporaryDirectory) throws {
    let url = directory.url.appendingPathComponent("test.sqlite-wal")
    var bytes = [UInt8](try Data(contentsOf: url))
    let pageSize = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
    bytes[32 + (number - 1) * (24 + pageSize) + 24 + 100] ^= 0xFF
    try Data(bytes).write(to: url)
  }

  @Test func aDamagedFrameIsReportedAndTheLogKept() throws {
    let copy = try TemporaryDirectory()
    try Self.loggedCopy(inserts: 3, into: copy)
    // Frames 1 to 3 create the table; each insert writes two more (the row and its index).
    try Self.damageFrame(4, in: copy)
    let damaged = try Data(contentsOf: copy.url.appendingPathComponent("test.sqlite-wal"))
    let database = try SQLiteDatabase(SQLiteDatabaseTests.file(in: copy))
    #expect(try SQLiteDatabaseTests.names(database).isEmpty)
    #expect(database.warnings.count == 1)
    let warning = try #require(database.warnings.first)
    #expect(warning.contains("damaged after frame 3"), "\(warning)")
    #expect(warning.contains("3 transactions"), "\(warning)")
    #expect(warning.contains("test.sqlite-wal.damaged"), "\(warning)")
    #expect(try Data(contentsOf: copy.url.appendingPathComponent("test.sqlite-wal.damaged")) == damaged)
  }

  @Test func aSoundLogOpensWithoutAWord() throws {
    let copy = try TemporaryDirectory()
    try Self.loggedCopy(inserts: 3, into: copy)
    let database = try SQLiteDatabase(SQLiteDatabaseTests.file(in: copy))
    #expect(try SQLiteDatabaseTests.names(database) == ["item 0", "item 1", "item 2"])
    #expect(database.warnings.isEmpty)
  }

  /// SQLite starts a log over from its first frame after a full checkpoint, leaving the older
  /// frames behind it: they are not this log's, and nothing was lost.
  @Test func theFramesOfAnEarlierLogAreNotALoss() throws {
    let copy = try TemporaryDirectory()
    try Self.loggedCopy(inserts: 10, into: copy) { database in
      _ = try database.rows("PRAGMA wal_checkpoint(RESTART)")
      try database.run("INSERT INTO items (name) VALUES ('after')")
    }
    let database = try SQLiteDatabase(SQLiteDatabaseTests.file(in: copy))
    #expect(try SQLiteDatabaseTests.names(database).count == 11)
    #expect(database.warnings.isEmpty)
  }

  /// A transaction cut off before its commit frame was never committed: nothing to report.
  @Test func anUncommittedTailIsNotALoss() throws {
    let copy = try TemporaryDirectory()
    try Self.loggedCopy(inserts: 3, into: copy)
    let url = copy.url.appendingPathComponent("test.sqlite-wal")
    var bytes = [UInt8](try Data(contentsOf: url))
    let pageSize = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
    // The last frame no longer commits: as if the process died writing it.
    let last = bytes.count - (24 + pageSize)
    bytes.replaceSubrange((last + 4)..<(last + 8), with: [0, 0, 0, 0])
    try Data(bytes).write(to: url)
    let database = try SQLiteDatabase(SQLiteDatabaseTests.file(in: copy))
    #expect(try SQLiteDatabaseTests.names(database) == ["item 0", "item 1"])
    #expect(database.warnings.isEmpty)
  }
}
