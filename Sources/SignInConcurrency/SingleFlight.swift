/// Runs at most one operation at a time on behalf of any number of waiters, and gives every
/// waiter of that run the same result.
///
/// - A waiter that arrives while a run is in flight joins it; one that arrives after it ended
///   starts a new run.
/// - Cancelling a waiter's task removes that waiter at once (it throws `CancellationError`); the
///   run goes on for the others. When the last waiter leaves, the run's task is cancelled.
/// - ``cancel()`` cancels the run in flight; its waiters get whatever the operation throws.
///
/// - Concurrency: `Sendable`, lock-guarded (``Locked``), any isolation. Continuations are resumed outside
///   the lock. Registration runs on the caller's isolation (`#isolation`), so an actor can check
///   its state and join in one step.
package final class SingleFlight<Value: Sendable>: Sendable {
  private struct State {
    var nextID = 0
    var generation = 0
    /// Waiters announced but not yet parked.
    var announced: Set<Int> = []
    /// Waiters cancelled before they parked; they leave as soon as they try.
    var cancelledEarly: Set<Int> = []
    /// Parked waiters of the run in flight.
    var waiting: [Int: CheckedContinuation<Value, any Error>] = [:]
    var run: Run?
    /// Callers of ``waiters(atLeast:)``, on the number of parked waiters.
    var watchers = ConditionWaiters<Int>()
  }

  private struct Run {
    let generation: Int
    var task: Task<Void, Never>?
  }

  private enum Registration {
    case cancelled, joined
    case start(Int)
  }

  private let state = Locked(State())
  /// The executor the run's task prefers; `nil` is the global concurrent executor.
  private let executorPreference: (any TaskExecutor)?

  /// - Parameter executorPreference: the executor each run's task prefers (SE-0417), so its
  ///   work and the default actors it calls stay on it; `nil`, the runtime's global pool.
  package init(executorPreference: (any TaskExecutor)? = nil) {
    self.executorPreference = executorPreference
  }

  /// The number of waiters parked on the run in flight.
  package var waiterCount: Int { state.withLock { $0.waiting.count } }

  /// Whether a run is in flight.
  package var isRunning: Bool { state.withLock { $0.run != nil } }

  /// Suspends until at least `count` waiters are parked on the run in flight (for tests that
  /// must hold a run until every caller has joined it). Does not poll.
  /// Returns early when the calling task is cancelled.
  package func waiters(atLeast count: Int) async {
    await state.wait(on: \.watchers, observing: { $0.waiting.count }, until: { $0 >= count })
  }

  /// Joins the run in flight, or starts `operation` as a new run, and returns its result.
  ///
  /// - Throws: what the operation throws, or `CancellationError` when this waiter's task is
  ///   cancelled (the run continues while other waiters remain).
  package func run(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let id = state.withLock { state in
      defer { state.nextID &+= 1 }
      state.announced.insert(state.nextID)
      return state.nextID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
        let (registration, watchers) = state.withLock {
          state -> (Registration, [CheckedContinuation<Void, Never>]) in
          state.announced.remove(id)
          if state.cancelledEarly.remove(id) != nil { return (.cancelled, []) }
          state.waiting[id] = continuation
          let watchers = state.watchers.takeSatisfied(by: state.waiting.count)
          if state.run != nil { return (.joined, watchers) }
          state.generation &+= 1
          state.run = Run(generation: state.generation)
          return (.start(state.generation), watchers)
        }
        for watcher in watchers { watcher.resume() }
        switch registration {
        case .cancelled:
          continuation.resume(throwing: CancellationError())
        case .joined:
          break
        case .start(let generation):
          let task = Task(executorPreference: executorPreference) {
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            self.finish(generation: generation, with: result)
          }
          let abandoned = state.withLock { state -> Bool in
            guard state.run?.generation == generation else { return true }
            state.run?.task = task
            return false
          }
          if abandoned { task.cancel() }
        }
      }
    } onCancel: {
      let (continuation, task) = state.withLock {
        state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
        if state.announced.remove(id) != nil {
          state.cancelledEarly.insert(id)
          return (nil, nil)
        }
        guard let continuation = state.waiting.removeValue(forKey: id) else { return (nil, nil) }
        guard state.waiting.isEmpty, let run = state.run else { return (continuation, nil) }
        state.run = nil
        return (continuation, run.task)
      }
      continuation?.resume(throwing: CancellationError())
      task?.cancel()
    }
  }

  /// Cancels the run in flight, if any. Its waiters receive what the operation then throws.
  package func cancel() {
    let task = state.withLock { $0.run?.task }
    task?.cancel()
  }

  private func finish(generation: Int, with result: Result<Value, any Error>) {
    let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
      guard state.run?.generation == generation else { return [] }
      state.run = nil
      defer { state.waiting.removeAll() }
      return Array(state.waiting.values)
    }
    for waiter in waiters { waiter.resume(with: result) }
  }
}
