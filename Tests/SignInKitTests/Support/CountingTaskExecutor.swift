import Dispatch
import Synchronization

/// A task executor that runs its jobs on a serial dispatch queue and counts them, so a test can
/// see that work it did not start itself ran on it.
final class CountingTaskExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "CountingTaskExecutor")
  private let count = Atomic(0)

  /// The jobs run so far.
  var jobs: Int { count.load(ordering: .relaxed) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async {
      self.count.add(1, ordering: .relaxed)
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }
}
