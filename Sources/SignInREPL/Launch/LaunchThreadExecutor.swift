import Dispatch
import Synchronization

/// Runs the jobs of the tasks that prefer it on the one thread that calls ``run()``: `signin`'s
/// launch thread. The launch's tasks prefer it, so the default actors they call (`Auth`, the REPL
/// session, `UIStateActor`) run there too (SE-0417), and start-up does its work on one thread
/// instead of handing every step between threads of the runtime's pool.
///
/// - Concurrency: `Sendable`. ``enqueue(_:)`` and ``stop()`` may be called from any thread;
///   ``run()`` from one thread at a time. Jobs run one at a time, in the order they came.
final class LaunchThreadExecutor: TaskExecutor {
  private struct Queue {
    var jobs: [UnownedJob] = []
    var isStopped = false
  }

  private let queue = Mutex(Queue())
  /// Signalled once per job and once by ``stop()``.
  private let wakeUps = DispatchSemaphore(value: 0)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.withLock { $0.jobs.append(job) }
    wakeUps.signal()
  }

  /// Runs jobs as they come until ``stop()``; jobs still queued then are left unrun.
  func run() {
    while true {
      wakeUps.wait()
      let job = queue.withLock { queue -> UnownedJob? in
        queue.isStopped || queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
      }
      guard let job else { return }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// Makes ``run()`` return once the job it is running, if any, ends.
  func stop() {
    queue.withLock { $0.isStopped = true }
    wakeUps.signal()
  }
}
