import Foundation
import SignInConcurrency
import SignInKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on `<directory>/.lock`, held while the backend is alive, so two
/// processes never write one data directory.
///
/// - Concurrency: `Sendable`, lock-guarded; released by ``release()`` or at `deinit`.
final class DirectoryLock: Sendable {
  private let descriptor: Locked<Int32?>

  /// Takes the lock or throws at once, naming the directory.
  init(directory: URL) throws {
    let path = directory.appendingPathComponent(".lock").path
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw AuthError(.storage, "Cannot open \(path) (\(String(cString: strerror(errno)))).")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      close(fd)
      throw AuthError(
        .storage,
        "Another process is using the embedded backend data in \(directory.path). Close it, "
          + "or choose another data directory.")
    }
    descriptor = Locked(fd)
  }

  /// Releases the lock; later calls do nothing.
  func release() {
    guard
      let fd = descriptor.withLock({ fd in
        defer { fd = nil }
        return fd
      })
    else { return }
    flock(fd, LOCK_UN)
    close(fd)
  }

  deinit { release() }
}
