import Foundation
import SignInConcurrency
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3)))
struct OwnThreadsExecutorTests {
  /// Counts calls; a default actor, so it runs wherever its caller's task prefers.
  actor Counter {
    var calls = 0
    /// Whether this call ran on one of `executor`'s threads.
    func call(on executor: OwnThreadsExecutor) -> Bool {
      calls += 1
      return executor.runsOnItsThreads
    }
  }

  /// How many tasks keep the pool busy, and whether they may stop.
  final class BusyFlags: Sendable {
    let busy = Atomic(0)
    let released = Atomic(false)
  }

  @Test func tasksThatPreferItAndTheActorsTheyCallRunOnItsThreads() async {
    let executor = OwnThreadsExecutor(name: "answerers", threads: 2)
    defer { executor.stop() }
    let counter = Counter()
    let ranThere = await Task(executorPreference: executor) {
      let own = executor.runsOnItsThreads
      let inActor = await counter.call(on: executor)
      return [own, inActor]
    }.value
    #expect(ranThere == [true, true])
  }

  /// The reason it exists: with every thread of the shared pool kept busy, a task that prefers
  /// it still runs. Here that task is the one that lets the pool go; on the pool it would wait for
  /// a thread that never comes (and the busy tasks give up after a minute, failing the test). They
  /// spin rather than wait, as password hashing does: the runtime adds no thread for a busy one.
  @Test func runsWhileEveryThreadOfTheSharedPoolIsBusy() async {
    let executor = OwnThreadsExecutor(name: "answerers", threads: 1)
    defer { executor.stop() }
    let poolWidth = ProcessInfo.processInfo.activeProcessorCount
    let flags = BusyFlags()
    let busyTasks = (0..<poolWidth).map { _ in
      Task.detached {
        flags.busy.add(1, ordering: .sequentiallyConsistent)
        let giveUp = ContinuousClock.now + .seconds(60)
        while !flags.released.load(ordering: .sequentiallyConsistent) {
          if ContinuousClock.now > giveUp { return false }
        }
        return true
      }
    }
    let releaser = Task(executorPreference: executor) {
      while flags.busy.load(ordering: .sequentiallyConsistent) < poolWidth {}
      flags.released.store(true, ordering: .sequentiallyConsistent)
    }
    await releaser.value
    for task in busyTasks { #expect(await task.value, "the pool stayed busy: the task ran on the pool") }
  }

  @Test func aTaskStillHoldingItAfterStopRunsOnTheSharedPool() async {
    let executor = OwnThreadsExecutor(name: "answerers", threads: 1)
    let counter = Counter()
    let (stream, gate) = AsyncStream.makeStream(of: Void.self)
    let task = Task(executorPreference: executor) {
      for await _ in stream { break }
      return await counter.call(on: executor)
    }
    executor.stop()
    gate.yield()
    #expect(await task.value == false)
    #expect(await counter.calls == 1)
  }
}
