import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Crash-safe whole-file replacement: write a temporary file in the same folder, `fsync` it,
/// `rename` it over the target, then `fsync` the folder. A crash or SIGKILL at any point leaves
/// the old content or the new, never a torn file.
///
/// - Concurrency: stateless functions, any isolation. Concurrent writers of one file each write
///   their own temporary file; the last rename wins.
package enum AtomicFile {
  /// Replaces the file at `url` with `data`, created with permission bits `mode`.
  /// - Throws: ``FileError`` naming the step that failed; the old file is unchanged.
  package static func write(_ data: Data, to url: URL, mode: mode_t = 0o600) throws(FileError) {
    let temporary = try writeTemporary(data, beside: url, mode: mode)
    guard rename(temporary, url.path) == 0 else {
      let code = errno
      unlink(temporary)
      throw failure("replace \(url.path)", code)
    }
    syncFolder(url.deletingLastPathComponent())
  }

  /// Writes `data` to a new temporary file beside `url` and syncs it; returns its path.
  private static func writeTemporary(_ data: Data, beside url: URL, mode: mode_t) throws(FileError) -> String {
    let folder = url.deletingLastPathComponent()
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(UUID().uuidString)", isDirectory: false
    ).path
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard fd >= 0 else { throw failure("create \(temporary)", errno) }
    var code = data.withUnsafeBytes { DescriptorOutput.write($0, to: fd) }
    if code == nil, fsync(fd) != 0 { code = errno }
    close(fd)
    if let code {
      unlink(temporary)
      throw failure("write \(temporary)", code)
    }
    return temporary
  }

  /// Creates the file at `url` with `data` only if there is no file there yet, as atomically as
  /// ``write(_:to:mode:)``: the content goes to a temporary file that is synced, then hard-linked
  /// into place (`link(2)` fails rather than replace an existing file).
  ///
  /// - Returns: `false` when a file already existed (it is left untouched).
  /// - Throws: ``FileError`` naming the step that failed.
  package static func create(_ data: Data, at url: URL, mode: mode_t = 0o600) throws(FileError) -> Bool {
    let temporary = try writeTemporary(data, beside: url, mode: mode)
    defer { unlink(temporary) }
    guard link(temporary, url.path) == 0 else {
      let code = errno
      if code == EEXIST { return false }
      throw failure("create \(url.path)", code)
    }
    syncFolder(url.deletingLastPathComponent())
    return true
  }

  /// Flushes a folder's entries (a rename or unlink in it) to disk.
  package static func syncFolder(_ folder: URL) {
    let fd = open(folder.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  private static func failure(_ action: String, _ code: Int32) -> FileError {
    FileError(
      "Could not \(action) (\(String(cString: strerror(code)))). The previous file, if any, is "
        + "unchanged; free disk space or fix permissions and try again.")
  }
}
