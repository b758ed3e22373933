import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file that may not exist yet, telling "there is no such file" apart from every other
/// failure.
///
/// Only `ENOENT` means "nothing stored yet". Any other failure (a file made unreadable for this
/// user, too many open files, a disk error, a folder where the file should be) is an
/// ``FileError`` error that names the path and what to do, so a caller never reads
/// it as empty and then writes over data it could not see.
///
/// - Concurrency: stateless functions, any isolation.
package enum FileContents {
  /// The bytes of the file at `url`, or `nil` when there is no file there.
  ///
  /// - Parameter what: what the file holds, for the message ("The account database").
  /// - Throws: ``FileError``; nothing was changed.
  package static func read(_ url: URL, what: String) throws(FileError) -> Data? {
    switch read(path: url.path) {
    case .missing: return nil
    case .data(let data): return data
    case .failed(let code): throw failure(url, what: what, code)
    }
  }

  private enum Outcome {
    case missing
    case data(Data)
    case failed(Int32)
  }

  private static func read(path: String) -> Outcome {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return errno == ENOENT ? .missing : .failed(errno) }
    defer { close(fd) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failed(errno)
      }
      if count == 0 { return .data(data) }
      data.append(contentsOf: chunk[0..<count])
    }
  }

  /// The error for a failed read: the path, the system's words, and the fix.
  static func failure(_ url: URL, what: String, _ code: Int32) -> FileError {
    let fix: String
    switch code {
    case EACCES, EPERM:
      fix = "Give this user read access to it (it may belong to another user), then try again."
    case EMFILE, ENFILE:
      fix = "Too many files are open; close some programs and try again."
    case EIO:
      fix = "The disk reported an error; check it, then try again."
    case EISDIR:
      fix = "A folder stands where the file should be; move it away, then try again."
    default:
      fix = "Fix the cause, then try again."
    }
    return FileError(
      "\(what) at \(url.path) could not be read (\(String(cString: strerror(code)))). Nothing was "
        + "changed or replaced. \(fix)")
  }
}

/// POSIX `read(2)`, named apart from ``FileContents/read(_:what:)``.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, buffer, count)
}
