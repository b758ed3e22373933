#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
  import SignInFoundation
#endif

/// The SQLite C functions ``SQLiteDatabase`` calls, and where they come from: on Apple
/// platforms the SDK's `SQLite3`, linked as usual (it is part of the system's shared cache, so
/// linking costs nothing at launch); elsewhere the system's libsqlite3, opened when the first
/// database opens rather than when the process starts (``SharedLibrary``), so a process that
/// never opens one never loads it.
///
/// Each field has the type of the C function of the same name (`openV2` is `sqlite3_open_v2`),
/// in `sqlite3.h`'s own types where it names one; on Apple platforms the compiler checks that
/// they match the header.
///
/// - Concurrency: `Sendable`; C function pointers, callable from any thread with SQLite's own
///   rules for each connection.
struct SQLiteLibrary: Sendable {
  let openV2:
    @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) ->
      Int32
  let closeV2: @convention(c) (OpaquePointer?) -> Int32
  let errmsg: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  let systemErrno: @convention(c) (OpaquePointer?) -> Int32
  let extendedErrcode: @convention(c) (OpaquePointer?) -> Int32
  let extendedResultCodes: @convention(c) (OpaquePointer?, Int32) -> Int32
  let busyTimeout: @convention(c) (OpaquePointer?, Int32) -> Int32
  let exec:
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, sqlite3_callback?, UnsafeMutableRawPointer?,
      UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32
  let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
  let changes: @convention(c) (OpaquePointer?) -> Int32
  let prepareV3:
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, Int32, UInt32, UnsafeMutablePointer<OpaquePointer?>?,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32
  let step: @convention(c) (OpaquePointer?) -> Int32
  let reset: @convention(c) (OpaquePointer?) -> Int32
  let finalize: @convention(c) (OpaquePointer?) -> Int32
  let clearBindings: @convention(c) (OpaquePointer?) -> Int32
  let bindParameterCount: @convention(c) (OpaquePointer?) -> Int32
  let bindParameterName: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
  let bindNull: @convention(c) (OpaquePointer?, Int32) -> Int32
  let bindInt64: @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
  let bindDouble: @convention(c) (OpaquePointer?, Int32, Double) -> Int32
  let bindText: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, Int32, sqlite3_destructor_type?) -> Int32
  let bindBlob64: @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?, UInt64, sqlite3_destructor_type?) -> Int32
  let columnCount: @convention(c) (OpaquePointer?) -> Int32
  let columnType: @convention(c) (OpaquePointer?, Int32) -> Int32
  let columnInt64: @convention(c) (OpaquePointer?, Int32) -> Int64
  let columnDouble: @convention(c) (OpaquePointer?, Int32) -> Double
  let columnBytes: @convention(c) (OpaquePointer?, Int32) -> Int32
  let columnText: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
  let columnBlob: @convention(c) (OpaquePointer?, Int32) -> UnsafeRawPointer?

  /// The functions, loading the library the first time.
  ///
  /// - Throws: ``SQLiteError/Reason/cannotOpen`` when the system has no usable libsqlite3,
  ///   saying what to install; every later call throws the same until the process restarts.
  static func shared() throws(SQLiteError) -> SQLiteLibrary { try loaded.get() }

  #if canImport(SQLite3)
    private static let loaded = Result<SQLiteLibrary, SQLiteError>.success(linked)
  #else
    private static let loaded = Result { () throws(SQLiteError) in
      try load(firstOf: ["libsqlite3.so.0", "libsqlite3.so"])
    }
  #endif

  #if canImport(SQLite3)
    private static let linked = SQLiteLibrary(
      openV2: sqlite3_open_v2, closeV2: sqlite3_close_v2, errmsg: sqlite3_errmsg, systemErrno: sqlite3_system_errno,
      extendedErrcode: sqlite3_extended_errcode, extendedResultCodes: sqlite3_extended_result_codes,
      busyTimeout: sqlite3_busy_timeout, exec: sqlite3_exec, free: sqlite3_free, changes: sqlite3_changes,
      prepareV3: sqlite3_prepare_v3, step: sqlite3_step, reset: sqlite3_reset, finalize: sqlite3_finalize,
      clearBindings: sqlite3_clear_bindings, bindParameterCount: sqlite3_bind_parameter_count,
      bindParameterName: sqlite3_bind_parameter_name, bindNull: sqlite3_bind_null, bindInt64: sqlite3_bind_int64,
      bindDouble: sqlite3_bind_double, bindText: sqlite3_bind_text, bindBlob64: sqlite3_bind_blob64,
      columnCount: sqlite3_column_count, columnType: sqlite3_column_type, columnInt64: sqlite3_column_int64,
      columnDouble: sqlite3_column_double, columnBytes: sqlite3_column_bytes, columnText: sqlite3_column_text,
      columnBlob: sqlite3_column_blob)
  #else
    /// Opens the first of `names` and looks up every function.
    static func load(firstOf names: [String]) throws(SQLiteError) -> SQLiteLibrary {
      do throws(SharedLibraryError) {
        let library = try SharedLibrary(firstOf: names)
        func function<F>(_ symbol: String) throws(SharedLibraryError) -> F { try library.function(symbol, as: F.self) }
        return SQLiteLibrary(
          openV2: try function("sqlite3_open_v2"), closeV2: try function("sqlite3_close_v2"),
          errmsg: try function("sqlite3_errmsg"), systemErrno: try function("sqlite3_system_errno"),
          extendedErrcode: try function("sqlite3_extended_errcode"),
          extendedResultCodes: try function("sqlite3_extended_result_codes"),
          busyTimeout: try function("sqlite3_busy_timeout"), exec: try function("sqlite3_exec"),
          free: try function("sqlite3_free"), changes: try function("sqlite3_changes"),
          prepareV3: try function("sqlite3_prepare_v3"), step: try function("sqlite3_step"),
          reset: try function("sqlite3_reset"), finalize: try function("sqlite3_finalize"),
          clearBindings: try function("sqlite3_clear_bindings"),
          bindParameterCount: try function("sqlite3_bind_parameter_count"),
          bindParameterName: try function("sqlite3_bind_parameter_name"), bindNull: try function("sqlite3_bind_null"),
          bindInt64: try function("sqlite3_bind_int64"), bindDouble: try function("sqlite3_bind_double"),
          bindText: try function("sqlite3_bind_text"), bindBlob64: try function("sqlite3_bind_blob64"),
          columnCount: try function("sqlite3_column_count"), columnType: try function("sqlite3_column_type"),
          columnInt64: try function("sqlite3_column_int64"), columnDouble: try function("sqlite3_column_double"),
          columnBytes: try function("sqlite3_column_bytes"), columnText: try function("sqlite3_column_text"),
          columnBlob: try function("sqlite3_column_blob"))
      } catch {
        throw SQLiteError(
          .cannotOpen,
          message: "SQLite, which keeps the embedded backend's accounts, is missing: \(error.message). Nothing was "
            + "changed. Install it (Debian and Ubuntu: apt-get install libsqlite3-0; Fedora: dnf install "
            + "sqlite-libs) and start again.")
      }
    }
  #endif
}
