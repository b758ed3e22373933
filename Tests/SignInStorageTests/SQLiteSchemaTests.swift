import Foundation
import SignInStorage
import SignInTestSupport
import Testing

@Suite struct SQLiteSchemaTests {
  static let first = "CREATE TABLE accounts (uid TEXT PRIMARY KEY, email TEXT UNIQUE)"
  static let second = "ALTER TABLE accounts ADD COLUMN phone TEXT; CREATE INDEX accounts_phone ON accounts (phone)"

  @Test func migratesForwardOneVersionAtATimeAndKeepsTheData() throws {
    let directory = try TemporaryDirectory()
    let location = SQLiteDatabase.Location.file(directory.url.appendingPathComponent("a.sqlite"))
    let old = try SQLiteDatabase(location)
    try SQLiteSchema(migrations: [Self.first]).migrate(old)
    try old.run("INSERT INTO accounts (uid, email) VALUES ('u1', 'ada@example.com')")
    #expect(try SQLiteSchema.version(of: old) == 1)
    old.close()

    let new = try SQLiteDatabase(location)
    try SQLiteSchema(migrations: [Self.first, Self.second]).migrate(new)
    #expect(try SQLiteSchema.version(of: new) == 2)
    try new.run("UPDATE accounts SET phone = '+15555550100' WHERE uid = 'u1'")
    let row = try #require(try new.rows("SELECT email, phone FROM accounts").first)
    #expect(row.text(0) == "ada@example.com")
    #expect(row.text(1) == "+15555550100")
    // Migrating again finds nothing to do.
    try SQLiteSchema(migrations: [Self.first, Self.second]).migrate(new)
    #expect(try SQLiteSchema.version(of: new) == 2)
  }

  @Test func aFileFromANewerSchemaIsRefusedAndLeftAsItIs() throws {
    let directory = try TemporaryDirectory()
    let location = SQLiteDatabase.Location.file(directory.url.appendingPathComponent("a.sqlite"))
    let newer = try SQLiteDatabase(location)
    try SQLiteSchema(migrations: [Self.first, Self.second]).migrate(newer)
    newer.close()

    let older = try SQLiteDatabase(location)
    let error = try #require(throws: SQLiteError.self) { try SQLiteSchema(migrations: [Self.first]).migrate(older) }
    #expect(error.reason == .newerSchema)
    #expect(error.message.contains("newer version"))
    #expect(try SQLiteSchema.version(of: older) == 2)
  }

  @Test func aMigrationThatFailsLeavesTheFileAtTheVersionBefore() throws {
    let database = try SQLiteDatabase(.memory)
    let broken = "ALTER TABLE accounts ADD COLUMN phone TEXT; ALTER TABLE nowhere ADD COLUMN x"
    #expect(throws: SQLiteError.self) { try SQLiteSchema(migrations: [Self.first, broken]).migrate(database) }
    #expect(try SQLiteSchema.version(of: database) == 1)
    // The failed migration's first statement was rolled back with it.
    #expect(
      try database.rows("SELECT name FROM pragma_table_info('accounts')").compactMap { $0.text(0) } == ["uid", "email"])
  }
}
