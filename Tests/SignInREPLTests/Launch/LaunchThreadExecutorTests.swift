import Foundation
import SignInConcurrency
import Testing

@testable import SignInREPL

@Suite(.timeLimit(.minutes(3))) struct LaunchThreadExecutorTests {
  actor Probe {
    func thread() -> ObjectIdentifier { currentThread() }
  }

  /// The calling thread, as a `Sendable` identity on every platform (`pthread_t` is a pointer
  /// on Darwin, so it cannot cross tasks there).
  static func currentThread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

  /// Runs `executor` on a thread of its own until `tasks` ended, then stops it and waits for its
  /// loop to return.
  static func runUntil(_ tasks: [Task<Void, Never>], endOn executor: LaunchThreadExecutor) async {
    async let runEnded: Void = withCheckedContinuation { continuation in
      Thread.detachNewThread {
        executor.run()
        continuation.resume()
      }
    }
    for task in tasks { await task.value }
    executor.stop()
    await runEnded
  }

  @Test func runsPreferringTasksAndTheActorsTheyCallOnTheThreadThatRunsIt() async {
    let executor = LaunchThreadExecutor()
    let runner = Locked<ObjectIdentifier?>(nil)
    async let runEnded: Void = withCheckedContinuation { continuation in
      Thread.detachNewThread {
        runner.withLock { $0 = Self.currentThread() }
        executor.run()
        continuation.resume()
      }
    }
    let probe = Probe()
    let (task, actor) = await Task(executorPreference: executor) { (Self.currentThread(), await probe.thread()) }.value
    executor.stop()
    await runEnded
    let thread = runner.withLock { $0 }
    #expect(thread != nil && thread == task)
    #expect(thread != nil && thread == actor)
  }

  @Test func runsJobsInTheOrderTheyCame() async {
    let executor = LaunchThreadExecutor()
    let order = Locked<[Int]>([])
    // Queued before the thread runs, so the order is the enqueue order, not a race.
    let tasks = (0..<5).map { index in Task(executorPreference: executor) { order.withLock { $0.append(index) } } }
    await Self.runUntil(tasks, endOn: executor)
    #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
  }

  @Test func runsHigherPrioritiesFirstAndEachPriorityInTheOrderItCame() async {
    let executor = LaunchThreadExecutor()
    let order = Locked<[String]>([])
    // Queued before the thread runs: background work waits for the work in hand.
    let tasks = [
      Task(executorPreference: executor, priority: .utility) { order.withLock { $0.append("utility 1") } },
      Task(executorPreference: executor, priority: .high) { order.withLock { $0.append("high 1") } },
      Task(executorPreference: executor, priority: .utility) { order.withLock { $0.append("utility 2") } },
      Task(executorPreference: executor, priority: .high) { order.withLock { $0.append("high 2") } },
    ]
    await Self.runUntil(tasks, endOn: executor)
    #expect(order.withLock { $0 } == ["high 1", "high 2", "utility 1", "utility 2"])
  }

  @Test func releasingTheMainThreadElsewhereKeepsEveryJobInOrder() async {
    let executor = LaunchThreadExecutor()
    let order = Locked<[Int]>([])
    let first = (0..<3).map { index in Task(executorPreference: executor) { order.withLock { $0.append(index) } } }
    executor.releaseMainThread()
    executor.releaseMainThread()
    let second = (3..<6).map { index in Task(executorPreference: executor) { order.withLock { $0.append(index) } } }
    await Self.runUntil(first + second, endOn: executor)
    #expect(order.withLock { $0 } == [0, 1, 2, 3, 4, 5])
  }
}
