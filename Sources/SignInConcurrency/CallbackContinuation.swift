/// The one answer of a callback API (a system sheet's completion handler, a delegate), handed to
/// the task that waits for it, whichever thread the system calls back on and however often.
///
/// - The first of ``resume(with:)`` and the waiting task's cancellation decides the result;
///   later answers are ignored, so a completion handler called twice, or after a cancellation,
///   cannot resume a continuation twice.
/// - An answer or a cancellation that comes before ``value(start:onCancel:)`` has parked is
///   kept, and the wait ends as soon as it parks.
///
/// The callback need not be isolated to anything: the system may call it off the main thread
/// (AuthenticationServices does on macOS), so nothing here assumes an actor.
///
/// - Concurrency: `Sendable`, lock-guarded (``Locked``), any thread. The continuation is resumed
///   outside the lock.
package final class CallbackContinuation<Value: Sendable>: Sendable {
  private enum State {
    case waiting
    case parked(CheckedContinuation<Value, any Error>)
    /// Answered before the waiter parked.
    case answered(Result<Value, any Error>)
    case finished
  }

  private let state = Locked(State.waiting)
  private let cancellationError: @Sendable () -> any Error

  /// - Parameter cancellationError: what the wait throws when its task is cancelled first.
  package init(cancellationError: @escaping @Sendable () -> any Error = { CancellationError() }) {
    self.cancellationError = cancellationError
  }

  /// Starts the callback API with `start` and waits for its answer.
  ///
  /// - Parameters:
  ///   - start: runs once, on the caller's isolation, after the wait is ready for an answer.
  ///   - onCancel: runs when the calling task is cancelled, on whatever thread cancels it: ask
  ///     the system to close its sheet there. The wait ends at once with `cancellationError`.
  /// - Throws: the answer's error, or `cancellationError` when cancelled first.
  package func value(
    isolation: isolated (any Actor)? = #isolation, start: () -> Void,
    onCancel: @escaping @Sendable () -> Void = {}
  ) async throws -> Value {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
        let early: Result<Value, any Error>? = state.withLock { state in
          switch state {
          case .waiting:
            state = .parked(continuation)
            return nil
          case .answered(let result):
            state = .finished
            return result
          case .parked, .finished:
            return .failure(cancellationError())
          }
        }
        if let early {
          continuation.resume(with: early)
        } else {
          start()
        }
      }
    } onCancel: {
      if resume(with: .failure(cancellationError())) { onCancel() }
    }
  }

  /// Hands over the answer; from any thread, any number of times: only the first counts.
  ///
  /// - Returns: whether this answer was the one taken.
  @discardableResult
  package func resume(with result: Result<Value, any Error>) -> Bool {
    let (taken, parked): (Bool, CheckedContinuation<Value, any Error>?) = state.withLock { state in
      switch state {
      case .waiting:
        state = .answered(result)
        return (true, nil)
      case .parked(let continuation):
        state = .finished
        return (true, continuation)
      case .answered, .finished:
        return (false, nil)
      }
    }
    parked?.resume(with: result)
    return taken
  }
}
