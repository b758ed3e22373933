#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a POSIX mutex; the lock behind every piece of shared mutable state here.
///
/// Why not `Synchronization.Mutex`: on Linux it is built on raw futex calls, which
/// ThreadSanitizer does not see, so every access through it is reported as a data race and real
/// races drown in the noise. `pthread_mutex_t` is intercepted by ThreadSanitizer.
///
/// Keep critical sections short and never suspend or call out to unknown code inside them;
/// resume continuations after the lock is released.
///
/// - Concurrency: `Sendable`. It is `@unchecked` because the compiler cannot see the lock: `value`
///   is only read or written inside ``withLock(_:)``, while `mutex` is held.
@usableFromInline package final class Locked<Value: Sendable>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline var value: Value

  package init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inlinable package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
