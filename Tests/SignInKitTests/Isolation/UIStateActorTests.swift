import Dispatch
import Testing

@testable import SignInKit

@Suite struct UIStateActorTests {
  @Test @UIStateActor func isolatedCodeRunsOnTheUIStateExecutor() {
    UIStateActor.preconditionIsolated()
    UIStateActor.shared.assertIsolated()
  }

  @Test func synchronousCallbackOnTheExecutorCanAssumeIsolation() async {
    // A plain closure (not statically isolated) that runs on the executor's queue passes the
    // executor's checkIsolated(), so assumeIsolated works from callbacks.
    let store = AuthStateStore(eventBufferLimit: 1)
    let state = await UIStateActor.run {
      let callback: () -> AuthState = {
        UIStateActor.assumeIsolated { store.state }
      }
      return callback()
    }
    #expect(state == .restoring)
  }

  @Test func jobsRunOneAtATimeInSubmissionOrder() async {
    let log = await UIStateActor.run { OrderLog() }
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<200 {
        group.addTask { @UIStateActor in log.record(index) }
      }
    }
    let entries = await UIStateActor.run { log.entries }
    #expect(entries.sorted() == Array(0..<200))
    #expect(await UIStateActor.run { log.maxConcurrent } == 1)
  }
}

@UIStateActor private final class OrderLog {
  var entries: [Int] = []
  var running = 0
  var maxConcurrent = 0

  func record(_ value: Int) {
    running += 1
    maxConcurrent = max(maxConcurrent, running)
    entries.append(value)
    running -= 1
  }
}
