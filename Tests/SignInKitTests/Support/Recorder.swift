import Synchronization

/// Collects every value of a stream on its own task, so a test can wait for a condition on what
/// arrived without sleeping or polling.
final class Recorder<Value: Sendable>: Sendable {
  private struct Watcher {
    let predicate: @Sendable ([Value]) -> Bool
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var values: [Value] = []
    var isFinished = false
    var watchers: [Watcher] = []
  }

  private let state = Mutex(State())
  private let task = Mutex<Task<Void, Never>?>(nil)

  private init() {}

  /// Starts consuming `stream`.
  static func start(_ stream: AsyncStream<Value>) -> Recorder {
    let recorder = Recorder()
    recorder.task.withLock {
      $0 = Task {
        for await value in stream { recorder.append(value) }
        recorder.markFinished()
      }
    }
    return recorder
  }

  var values: [Value] { state.withLock { $0.values } }
  var isFinished: Bool { state.withLock { $0.isFinished } }

  /// Suspends until `predicate` holds for the values so far (or the stream ended).
  func wait(until predicate: @escaping @Sendable ([Value]) -> Bool) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.isFinished || predicate(state.values) { return true }
        state.watchers.append(Watcher(predicate: predicate, continuation: continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Suspends until the stream has ended.
  func waitForFinish() async { await task.withLock { $0 }?.value }

  /// Stops consuming: the subscription ends.
  func cancel() { task.withLock { $0 }?.cancel() }

  private func append(_ value: Value) {
    let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.values.append(value)
      let values = state.values
      let due = state.watchers.filter { $0.predicate(values) }
      state.watchers.removeAll { $0.predicate(values) }
      return due.map(\.continuation)
    }
    for continuation in due { continuation.resume() }
  }

  private func markFinished() {
    let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isFinished = true
      defer { state.watchers.removeAll() }
      return state.watchers.map(\.continuation)
    }
    for continuation in due { continuation.resume() }
  }
}

extension Recorder where Value: Equatable {
  /// Suspends until `value` has arrived.
  func wait(for value: Value) async { await wait { $0.contains(value) } }
}
