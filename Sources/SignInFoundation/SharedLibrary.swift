#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system library opened when a feature first needs it (`dlopen`), instead of when the
/// process starts.
///
/// On Linux the dynamic loader maps, relocates and initialises every library a binary links
/// before `main` runs, whether or not the process ever calls it. SQLite and libcrypt serve one
/// feature each (the embedded backend's accounts, imported bcrypt hashes), so SignInKit opens
/// them here at first use: an app or a `signin -c quit` that never needs them does not pay
/// for them (about 0.4 ms and 0.15 ms of each start on this machine, measured in
/// `signin-bench` row 6). Each caller keeps what it looks up in a `static let`, so the library
/// is opened once, by whichever thread needs it first.
///
/// - Concurrency: a value used by one caller while it looks up functions. The library is never
///   closed, so the functions it returns stay valid for the life of the process and can be
///   called from any thread.
package struct SharedLibrary {
  /// The file name the loader found, one of those passed to ``init(firstOf:)``.
  package let name: String
  private let handle: UnsafeMutableRawPointer

  /// Opens the first of `names` the dynamic loader finds on its usual search path (the
  /// library cache, `LD_LIBRARY_PATH`), resolving all its symbols now.
  ///
  /// - Throws: ``SharedLibraryError`` naming each file tried and the loader's reason for the
  ///   last.
  package init(firstOf names: [String]) throws(SharedLibraryError) {
    var reason = "no file names were given"
    for name in names {
      if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
        self.name = name
        self.handle = handle
        return
      }
      reason = dlerror().map { String(cString: $0) } ?? "not found"
    }
    throw SharedLibraryError("\(names.joined(separator: ", ")) could not be loaded (\(reason))")
  }

  /// The C function `symbol`, typed as `type`: a `@convention(c)` function type that matches
  /// the function's declaration in the library's header.
  ///
  /// - Throws: ``SharedLibraryError`` when the library has no such symbol (an older version).
  package func function<Function>(_ symbol: String, as type: Function.Type) throws(SharedLibraryError) -> Function {
    precondition(
      MemoryLayout<Function>.size == MemoryLayout<UnsafeMutableRawPointer>.size,
      "\(Function.self) is not a C function pointer type")
    guard let address = dlsym(handle, symbol) else {
      throw SharedLibraryError("\(name) has no function \(symbol): it is too old")
    }
    return unsafeBitCast(address, to: type)
  }
}

/// Why a ``SharedLibrary`` could not be opened or lacks a function, in words the caller extends
/// with what to install.
///
/// - Concurrency: `Sendable` value.
package struct SharedLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, without advice.
  package let message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
