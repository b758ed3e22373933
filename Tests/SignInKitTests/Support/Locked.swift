import Synchronization

/// A value shared between test tasks, guarded by a `Mutex` (which cannot be captured itself).
final class Locked<Value: Sendable>: Sendable {
  private let value: Mutex<Value>

  init(_ value: Value) { self.value = Mutex(value) }

  func withLock<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}
