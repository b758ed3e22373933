#if os(Linux)
  import CSQLite
  import Testing

  @testable import SignInStorage

  @Suite struct SQLiteLibraryTests {
    @Test func aMissingLibrarySaysWhatToInstallAndThatNothingChanged() {
      #expect {
        try SQLiteLibrary.load(firstOf: ["libsqlite3-signinkit-missing.so.0"])
      } throws: { error in
        guard let error = error as? SQLiteError else { return false }
        return error.reason == .cannotOpen && error.message.contains("libsqlite3-signinkit-missing.so.0")
          && error.message.contains("Nothing was changed") && error.message.contains("apt-get install libsqlite3-0")
      }
    }

    @Test func aLibraryWithoutSQLitesFunctionsNamesTheFirstMissing() {
      #expect {
        try SQLiteLibrary.load(firstOf: ["libc.so.6"])
      } throws: { error in
        (error as? SQLiteError)?.message.contains("libc.so.6 has no function sqlite3_open_v2") == true
      }
    }

    @Test func theSystemLibraryLoadsEveryFunction() throws {
      let sqlite = try SQLiteLibrary.load(firstOf: ["libsqlite3.so.0"])
      var handle: OpaquePointer?
      #expect(sqlite.openV2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
      #expect(sqlite.closeV2(handle) == SQLITE_OK)
    }
  }
#endif
