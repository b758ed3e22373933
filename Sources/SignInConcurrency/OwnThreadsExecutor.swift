import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A task executor with threads of its own, for work that must go on while the process's shared
/// pool is busy: a server in the same process as its clients answers on these threads, as it
/// would in a process of its own, however much synchronous work (password hashing, signing) the
/// clients give the shared pool.
///
/// Tasks that prefer it (`Task(executorPreference:)`) run their jobs here, and so do the default
/// actors they call (SE-0417). After ``stop()`` the threads finish the jobs already queued and
/// end; a job that comes later (a task still holding the preference) goes to the global
/// concurrent executor, so no task is ever stranded.
///
/// - Concurrency: `Sendable`. ``enqueue(_:)`` and ``stop()`` may be called from any thread. Jobs
///   start in the order they came, on up to `threads` threads at once.
package final class OwnThreadsExecutor: TaskExecutor {
  private struct Queue {
    var jobs: [UnownedJob] = []
    var isStopped = false
    var threadsRunning = 0
  }

  private let queue = Locked(Queue())
  /// The identities of this executor's threads, each added as it starts.
  private let ownThreads = Locked(Set<UInt>())
  /// Signalled once per job queued, and once per thread by ``stop()``.
  private let wakeUps = DispatchSemaphore(value: 0)
  private let threads: Int

  /// Starts `threads` threads (at least one) named `name`.
  package init(name: String, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.threads = max(1, threads)
    queue.withLock { $0.threadsRunning = self.threads }
    for index in 0..<self.threads {
      Thread.detachNewThread { [self] in
        // For debuggers only: Foundation may apply it to an object that is not yet the
        // thread's `Thread.current` (seen under load). ``runsOnItsThreads`` is the test.
        Thread.current.name = "\(name) \(index + 1)"
        ownThreads.withLock { _ = $0.insert(Self.currentThreadID) }
        run()
      }
    }
  }

  /// Whether the calling code runs on one of this executor's threads.
  package var runsOnItsThreads: Bool { ownThreads.withLock { $0.contains(Self.currentThreadID) } }

  private static var currentThreadID: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let queued = queue.withLock { queue in
      guard !queue.isStopped else { return false }
      queue.jobs.append(job)
      return true
    }
    if queued {
      wakeUps.signal()
    } else {
      globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }
  }

  /// Lets the threads end once the jobs already queued have run. Calling it again does nothing.
  package func stop() {
    let first = queue.withLock { queue in
      defer { queue.isStopped = true }
      return !queue.isStopped
    }
    guard first else { return }
    for _ in 0..<threads { wakeUps.signal() }
  }

  /// The threads that have not ended.
  package var threadsRunning: Int { queue.withLock { $0.threadsRunning } }

  private enum Next {
    case run(UnownedJob)
    case wait
    case end
  }

  private func run() {
    while true {
      wakeUps.wait()
      // A job's wake-up, or a stop's: take the next job, or end once stopped with none left.
      // (A wake-up whose job another thread took first finds nothing and waits again.)
      let next = queue.withLock { queue -> Next in
        if !queue.jobs.isEmpty { return .run(queue.jobs.removeFirst()) }
        guard queue.isStopped else { return .wait }
        queue.threadsRunning -= 1
        return .end
      }
      switch next {
      case .run(let job): job.runSynchronously(on: asUnownedTaskExecutor())
      case .wait: continue
      case .end: return
      }
    }
  }
}
