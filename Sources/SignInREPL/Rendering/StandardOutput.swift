import SignInFoundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes text to standard output straight through `write(2)`, unbuffered, as the renderer
/// needs: a line appears the moment it is said, and nothing is left in a buffer at `exit`.
///
/// Not `FileHandle.write(Data(text.utf8))`: building `Data` from a string's UTF-8 view casts it
/// at run time, and the first such cast in a process scans every conformance the program
/// holds, which `signin` would pay at every launch.
///
/// - Concurrency: stateless; safe from any thread. Concurrent calls may interleave their text.
enum StandardOutput {
  /// Writes all of `text`; gives up silently when standard output is closed (a closed pipe has
  /// no reader to tell).
  static func write(_ text: String) {
    var text = text
    _ = text.withUTF8 { DescriptorOutput.write(UnsafeRawBufferPointer($0), to: STDOUT_FILENO) }
  }
}
