/// Tasks parked until a condition on their owner's state holds: the bookkeeping half of a
/// "wait until N things happened" API, kept inside the owner's own lock so that the check and
/// the parking are one step.
///
/// The owner calls, all under its lock: ``reserve()`` before suspending, ``park(_:until:_:)``
/// in the continuation body (it returns `false` when the waiter should resume at once),
/// ``cancel(_:)`` from the cancellation handler, and ``takeSatisfied(by:)`` after each change.
/// Continuations are resumed by the owner outside the lock. A waiter cancelled before it parks
/// resumes as soon as it tries, so cancellation never strands a task.
///
/// - Concurrency: a value type with no synchronization of its own; guard it with the owner's lock.
package struct ConditionWaiters<State> {
  private struct Waiter {
    let predicate: @Sendable (State) -> Bool
    let continuation: CheckedContinuation<Void, Never>
  }

  private var nextID = 0
  private var reserved: Set<Int> = []
  private var waiters: [Int: Waiter] = [:]

  package init() {}

  /// A new waiter id, before the waiter suspends.
  package mutating func reserve() -> Int {
    defer { nextID &+= 1 }
    reserved.insert(nextID)
    return nextID
  }

  /// Parks the waiter unless `predicate` already holds for `state` or the waiter was cancelled;
  /// returns whether it parked.
  package mutating func park(
    _ id: Int, until predicate: @escaping @Sendable (State) -> Bool, state: State,
    _ continuation: CheckedContinuation<Void, Never>
  ) -> Bool {
    guard reserved.remove(id) != nil, !predicate(state) else { return false }
    waiters[id] = Waiter(predicate: predicate, continuation: continuation)
    return true
  }

  /// Removes a cancelled waiter and returns its continuation to resume; a waiter that has not
  /// parked yet will not park.
  package mutating func cancel(_ id: Int) -> CheckedContinuation<Void, Never>? {
    reserved.remove(id)
    return waiters.removeValue(forKey: id)?.continuation
  }

  /// Removes and returns the waiters whose condition now holds.
  package mutating func takeSatisfied(by state: State) -> [CheckedContinuation<Void, Never>] {
    guard !waiters.isEmpty else { return [] }
    let due = waiters.filter { $0.value.predicate(state) }
    for id in due.keys { waiters.removeValue(forKey: id) }
    return due.values.map { $0.continuation }
  }

  /// Removes and returns every parked waiter (the owner is finishing).
  package mutating func takeAll() -> [CheckedContinuation<Void, Never>] {
    reserved.removeAll()
    defer { waiters.removeAll() }
    return waiters.values.map { $0.continuation }
  }
}

extension Locked {
  /// Suspends until `predicate` holds for the part of the locked value that `observe` picks,
  /// parking in the ``ConditionWaiters`` at `waiters`. The owner wakes waiters by calling
  /// ``ConditionWaiters/takeSatisfied(by:)`` after each change. Returns early when the calling
  /// task is cancelled. Does not poll.
  package func wait<Observed>(
    on waiters: WritableKeyPath<Value, ConditionWaiters<Observed>> & Sendable,
    observing observe: @escaping @Sendable (Value) -> Observed,
    until predicate: @escaping @Sendable (Observed) -> Bool
  ) async {
    let id = withLock { $0[keyPath: waiters].reserve() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let parked = withLock { value in
          let observed = observe(value)
          return value[keyPath: waiters].park(
            id, until: predicate, state: observed, continuation)
        }
        if !parked { continuation.resume() }
      }
    } onCancel: {
      withLock { $0[keyPath: waiters].cancel(id) }?.resume()
    }
  }
}
