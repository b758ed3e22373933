import Dispatch

/// The serial executor behind ``UIStateActor``: one private dispatch queue, jobs run in FIFO order.
///
/// `DispatchSerialQueue` is not available on Linux, so this wraps a plain serial `DispatchQueue` and
/// implements `checkIsolated()` (SE-0424) so that `UIStateActor.preconditionIsolated()` and
/// `assumeIsolated` work from callbacks that run on the queue.
///
/// - Concurrency: `Sendable`; holds only an immutable queue reference.
final class UIStateExecutor: SerialExecutor {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(queue))
  }
}
