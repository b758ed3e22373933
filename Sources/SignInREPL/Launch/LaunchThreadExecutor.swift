import Dispatch
import Foundation
import SignInConcurrency

/// Runs the jobs of the tasks that prefer it on the one thread that calls ``run()``: `signin`'s
/// main thread. The launch's tasks prefer it, so the default actors they call (`Auth`, the REPL
/// session, `UIStateActor`) run there too (SE-0417), and start-up does its work on one thread
/// instead of handing every step between the main thread and the runtime's pool.
///
/// The main actor needs the main thread too (`start`'s `SignInFlow`): ``releaseMainThread()``
/// moves the jobs to a thread of their own and gives the main thread to the main queue, once, when
/// something first needs it, so start-up pays nothing for it.
///
/// Jobs of higher priority run first, so background work (`Auth` starting to follow other
/// processes) waits until the work in hand is done or waits for something: a `signin -c quit`
/// leaves before it starts.
///
/// - Concurrency: `Sendable`. ``enqueue(_:)`` and ``stop()`` may be called from any thread;
///   ``run()`` from one thread at a time. Jobs run one at a time: the highest priority first, and
///   jobs of one priority in the order they came.
final class LaunchThreadExecutor: TaskExecutor {
  private struct Queue {
    var jobs: [(priority: UInt8, job: UnownedJob)] = []
    var isStopped = false
    /// Asked by ``releaseMainThread()``, and whether it was done.
    var releasesMainThread = false
    var releasedMainThread = false
  }

  /// `Locked` (a pthread mutex) rather than `Mutex`: ThreadSanitizer sees the first, not the
  /// futex under the second.
  private let queue = Locked(Queue())
  /// Signalled once per job, once by ``stop()`` and once by ``releaseMainThread()``.
  private let wakeUps = DispatchSemaphore(value: 0)

  func enqueue(_ job: consuming ExecutorJob) {
    let priority = job.priority.rawValue
    let job = UnownedJob(job)
    queue.withLock { $0.jobs.append((priority, job)) }
    wakeUps.signal()
  }

  /// Runs jobs as they come until ``stop()``; jobs still queued then are left unrun. On the
  /// main thread, a ``releaseMainThread()`` moves this loop to a new thread and serves the main
  /// queue here for good.
  func run() {
    while true {
      wakeUps.wait()
      let (job, releases) = queue.withLock { queue -> (UnownedJob?, Bool) in
        if queue.releasesMainThread, !queue.releasedMainThread {
          queue.releasedMainThread = true
          return (nil, true)
        }
        guard !queue.isStopped,
          let first = queue.jobs.indices.max(by: { queue.jobs[$0].priority < queue.jobs[$1].priority })
        else { return (nil, false) }
        return (queue.jobs.remove(at: first).job, false)
      }
      if releases {
        // Elsewhere the request only used up its own wake-up.
        guard Thread.isMainThread else { continue }
        let jobs = Thread { self.run() }
        // The main thread's stack size: the jobs may go as deep as they would have here.
        jobs.stackSize = 8 << 20
        jobs.start()
        dispatchMain()
      }
      guard let job else { return }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// Gives the main thread to the main actor: the jobs that come next run on a thread of their
  /// own, in the same order. Only the first call does anything.
  func releaseMainThread() {
    let first = queue.withLock { queue in
      defer { queue.releasesMainThread = true }
      return !queue.releasesMainThread
    }
    if first { wakeUps.signal() }
  }

  /// Makes ``run()`` return once the job it is running, if any, ends.
  func stop() {
    queue.withLock { $0.isStopped = true }
    wakeUps.signal()
  }
}
