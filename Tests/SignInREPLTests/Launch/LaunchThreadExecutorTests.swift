import Foundation
import SignInConcurrency
import Testing

@testable import SignInREPL

@Suite(.timeLimit(.minutes(3))) struct LaunchThreadExecutorTests {
  actor Probe {
    func thread() -> pthread_t { pthread_self() }
  }

  @Test func runsPreferringTasksAndTheActorsTheyCallOnTheThreadThatRunsIt() async {
    let executor = LaunchThreadExecutor()
    let runner = Locked<pthread_t?>(nil)
    async let runEnded: Void = withCheckedContinuation { continuation in
      Thread.detachNewThread {
        runner.withLock { $0 = pthread_self() }
        executor.run()
        continuation.resume()
      }
    }
    let probe = Probe()
    let (task, actor) = await Task(executorPreference: executor) { (pthread_self(), await probe.thread()) }.value
    executor.stop()
    await runEnded
    let thread = runner.withLock { $0 }
    #expect(thread.map { pthread_equal($0, task) != 0 } == true)
    #expect(thread.map { pthread_equal($0, actor) != 0 } == true)
  }

  @Test func runsJobsInTheOrderTheyCame() async {
    let executor = LaunchThreadExecutor()
    let order = Locked<[Int]>([])
    // Queued before the thread runs, so the order is the enqueue order, not a race.
    let tasks = (0..<5).map { index in Task(executorPreference: executor) { order.withLock { $0.append(index) } } }
    async let runEnded: Void = withCheckedContinuation { continuation in
      Thread.detachNewThread {
        executor.run()
        continuation.resume()
      }
    }
    for task in tasks { await task.value }
    executor.stop()
    await runEnded
    #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
  }
}
