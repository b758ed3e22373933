#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing every byte of a buffer to an open file descriptor, as `write(2)` alone does not
/// promise: a short write goes on from where it stopped, and a signal that interrupts the call
/// retries it.
///
/// - Concurrency: stateless; safe from any thread. Concurrent writers to one descriptor may
///   interleave their bytes.
package enum DescriptorOutput {
  /// Writes all of `bytes` to `descriptor`.
  ///
  /// - Returns: `nil` once every byte is written; otherwise the `errno` of the failure (`EIO`
  ///   for a write that took nothing), with what came before it written.
  package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard let start = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, start + offset, bytes.count - offset)
      if written > 0 {
        offset += written
      } else if written < 0, errno == EINTR {
        continue
      } else {
        return written < 0 ? errno : EIO
      }
    }
    return nil
  }

  /// POSIX `write(2)`, named apart from ``write(_:to:)``.
  private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
      Musl.write(descriptor, bytes, count)
    #else
      Darwin.write(descriptor, bytes, count)
    #endif
  }
}
