#if os(Linux)
  import Testing

  @testable import SignInFoundation

  @Suite struct SharedLibraryTests {
    typealias StringLength = @convention(c) (UnsafePointer<CChar>?) -> Int

    @Test func opensTheFirstLibraryTheLoaderFindsAndCallsItsFunctions() throws {
      let library = try SharedLibrary(firstOf: ["libsigninkit-missing.so.0", "libc.so.6"])
      #expect(library.name == "libc.so.6")
      let length = try library.function("strlen", as: StringLength.self)
      #expect(length("signin") == 6)
    }

    @Test func namesEveryFileTriedWhenNoneLoads() {
      #expect {
        try SharedLibrary(firstOf: ["libsignin-a.so.0", "libsignin-b.so.0"])
      } throws: { error in
        let message = (error as? SharedLibraryError)?.message ?? ""
        return message.contains("libsignin-a.so.0, libsignin-b.so.0 could not be loaded")
          && message.contains("libsignin-b.so.0")
      }
    }

    @Test func namesAFunctionTheLibraryLacks() throws {
      let library = try SharedLibrary(firstOf: ["libc.so.6"])
      #expect(
        throws: SharedLibraryError("libc.so.6 has no function sqlite3_step: it is too old")
      ) {
        try library.function("sqlite3_step", as: StringLength.self)
      }
    }
  }
#endif
