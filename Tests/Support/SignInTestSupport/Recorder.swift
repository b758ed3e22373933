import SignInConcurrency

/// Collects every value of a stream on its own task, so a test can wait for a condition on what
/// arrived without sleeping or polling.
package final class Recorder<Value: Sendable>: Sendable {
  private struct State {
    package var values: [Value] = []
    var isFinished = false
    var waiters = ConditionWaiters<[Value]>()
  }

  private let state = Locked(State())
  private let task = Locked<Task<Void, Never>?>(nil)

  private init() {}

  /// Starts consuming `stream`.
  package static func start(_ stream: AsyncStream<Value>) -> Recorder {
    let recorder = Recorder()
    recorder.task.withLock {
      $0 = Task {
        for await value in stream { recorder.append(value) }
        recorder.markFinished()
      }
    }
    return recorder
  }

  package var values: [Value] { state.withLock { $0.values } }
  package var isFinished: Bool { state.withLock { $0.isFinished } }

  /// Suspends until `predicate` holds for the values so far, the stream ended, or the calling
  /// task is cancelled (a test past its time limit).
  package func wait(until predicate: @escaping @Sendable ([Value]) -> Bool) async {
    let id = state.withLock { $0.waiters.reserve() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let parked = state.withLock { state in
          !state.isFinished
            && state.waiters.park(id, until: predicate, state: state.values, continuation)
        }
        if !parked { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.cancel(id) }?.resume()
    }
  }

  /// Suspends until the stream has ended.
  package func waitForFinish() async { await task.withLock { $0 }?.value }

  /// Stops consuming: the subscription ends.
  package func cancel() { task.withLock { $0 }?.cancel() }

  private func append(_ value: Value) {
    let due = state.withLock { state in
      state.values.append(value)
      return state.waiters.takeSatisfied(by: state.values)
    }
    for continuation in due { continuation.resume() }
  }

  private func markFinished() {
    let due = state.withLock { state in
      state.isFinished = true
      return state.waiters.takeAll()
    }
    for continuation in due { continuation.resume() }
  }
}

extension Recorder where Value: Equatable {
  /// Suspends until `value` has arrived.
  package func wait(for value: Value) async { await wait { $0.contains(value) } }
}
