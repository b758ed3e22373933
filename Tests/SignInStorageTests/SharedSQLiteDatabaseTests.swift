import Foundation
import SignInTestSupport
import Testing

@testable import SignInStorage

@Suite struct SharedSQLiteDatabaseTests {
  @Test func aConnectionThatOpensOnFirstUseTouchesNoFileUntilThenAndPreparesOnce() throws {
    let folder = try TemporaryDirectory()
    let file = folder.url.appendingPathComponent("lazy.sqlite")
    var prepared = 0
    let shared = try SharedSQLiteDatabase(
      .file(file), opening: .onFirstUse(report: { _ in }),
      prepare: { database in
        prepared += 1
        try database.execute("CREATE TABLE IF NOT EXISTS notes (body TEXT)")
      })
    #expect(!FileManager.default.fileExists(atPath: file.path))
    try shared.open()
    try shared.open()
    #expect(FileManager.default.fileExists(atPath: file.path))
    #expect(prepared == 1)
    _ = try shared.use { database in try database.run("INSERT INTO notes (body) VALUES (?)", [.text("kept")]) }
    #expect(try shared.use { try $0.rows("SELECT body FROM notes") }.first?.text(0) == "kept")
  }

  @Test func aFirstOpenThatFailsThrowsAndTheNextTriesAgain() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.url.appendingPathComponent("later")
    let file = folder.appendingPathComponent("later.sqlite")
    let shared = try SharedSQLiteDatabase(.file(file), opening: .onFirstUse(report: { _ in }))
    // Its folder is not there yet.
    #expect(throws: SQLiteError.self) { try shared.open() }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try shared.open()
    #expect(FileManager.default.fileExists(atPath: file.path))
  }

  @Test func aConnectionClosedBeforeItEverOpenedRefusesToOpen() throws {
    let folder = try TemporaryDirectory()
    let file = folder.url.appendingPathComponent("closed.sqlite")
    let shared = try SharedSQLiteDatabase(.file(file), opening: .onFirstUse(report: { _ in }))
    shared.close()
    let error = #expect(throws: SQLiteError.self) { try shared.open() }
    #expect(error?.message.contains("was closed") == true)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func anEagerConnectionOpensWhenMadeAndThrowsThen() throws {
    let scratch = try TemporaryDirectory()
    let folder = scratch.url.appendingPathComponent("now")
    let file = folder.appendingPathComponent("now.sqlite")
    #expect(throws: SQLiteError.self) { try SharedSQLiteDatabase(.file(file)) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    _ = try SharedSQLiteDatabase(.file(file))
    #expect(FileManager.default.fileExists(atPath: file.path))
  }
}
