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
  /// Writes all of `text`, retrying after a signal or a short write; gives up silently when
  /// standard output is closed (a closed pipe has no reader to tell).
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard let start = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(STDOUT_FILENO, start + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }

  private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }
}
