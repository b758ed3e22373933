/// Thrown by ``withTimeout(_:clock:operation:)`` when the deadline passes first.
package struct TimeoutError: Error, Hashable {
  package init() {}
}

private enum Race<Value: Sendable>: Sendable {
  case finished(Value)
  case timedOut
}

/// Runs `operation` and a timer as two children of one task group; the first to finish wins and
/// the other is cancelled. Both children have ended when this returns.
///
/// - Throws: ``TimeoutError`` when `timeout` passes first, or what `operation` throws.
package func withTimeout<C: Clock, Value: Sendable>(
  _ timeout: C.Duration, clock: C, operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  try await withThrowingTaskGroup(of: Race<Value>.self) { group in
    defer { group.cancelAll() }
    group.addTask { .finished(try await operation()) }
    group.addTask {
      try await clock.sleep(for: timeout)
      return .timedOut
    }
    switch try await group.next() {
    case .finished(let value): return value
    case .timedOut: throw TimeoutError()
    case nil: throw CancellationError()
    }
  }
}
