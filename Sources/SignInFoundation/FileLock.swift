import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on a lock file, held until the value is dropped: every process (and every
/// open of the file in this one) that takes the same file waits its turn. The file itself holds
/// nothing and is never removed, so a lock can never be taken on a file another process is about
/// to delete.
///
/// - Concurrency: noncopyable; whoever holds it releases it by dropping it, from any thread.
package struct FileLock: ~Copyable {
  private let descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Takes the lock on `url` (made with mode 0600 when missing), waiting for whoever holds it.
  ///
  /// A lock held elsewhere is waited for on a thread of its own, never on the caller's: the shared
  /// pool keeps running meanwhile. The wait is not cancellable; the holder keeps the lock only for
  /// the work it guards.
  ///
  /// - Throws: ``FileError`` when the file cannot be opened or locked.
  package static func acquire(_ url: URL) async throws(FileError) -> FileLock {
    let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw FileError("The lock file \(url.path) could not be opened (\(String(cString: strerror(errno)))).")
    }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return FileLock(descriptor: descriptor) }
    guard errno == EWOULDBLOCK || errno == EINTR else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw FileError("The lock file \(url.path) could not be locked (\(reason)).")
    }
    let locked = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      Thread.detachNewThread {
        var result = flock(descriptor, LOCK_EX)
        while result != 0, errno == EINTR { result = flock(descriptor, LOCK_EX) }
        continuation.resume(returning: result == 0)
      }
    }
    guard locked else {
      close(descriptor)
      throw FileError("The lock file \(url.path) could not be locked.")
    }
    return FileLock(descriptor: descriptor)
  }

  /// Runs `body` holding the lock on `url`, taken as ``acquire(_:)`` takes it, and lets the lock
  /// go however `body` ends.
  ///
  /// - Throws: ``FileError`` when the lock cannot be taken; what `body` throws.
  package static nonisolated(nonsending) func whileHolding<T>(_ url: URL, _ body: () async throws -> T) async throws
    -> T
  {
    let lock = try await acquire(url)
    do {
      let result = try await body()
      lock.release()
      return result
    } catch {
      lock.release()
      throw error
    }
  }

  /// Runs `body` holding the lock on `url` (made with mode 0600 when missing), waiting on this
  /// thread for whoever holds it: for short work only, such as a read-compare-write.
  ///
  /// - Throws: ``FileError`` when the file cannot be opened or locked; what `body` throws.
  package static func holding<T>(_ url: URL, _ body: () throws -> T) throws -> T {
    let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw FileError("The lock file \(url.path) could not be opened (\(String(cString: strerror(errno)))).")
    }
    defer { close(descriptor) }
    var result = flock(descriptor, LOCK_EX)
    while result != 0, errno == EINTR { result = flock(descriptor, LOCK_EX) }
    guard result == 0 else {
      throw FileError("The lock file \(url.path) could not be locked (\(String(cString: strerror(errno)))).")
    }
    return try body()
  }

  /// Whether another holder has the lock on `url` now; for tests and diagnostics.
  package static func isHeld(_ url: URL) -> Bool {
    let descriptor = open(url.path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) != 0
  }

  /// Lets the next holder have it.
  package consuming func release() {}

  deinit { close(descriptor) }
}
