import Dispatch
import Testing

@testable import SignInKit

@Suite struct UIStateActorTests {
  @Test @UIStateActor func isolatedCodeRunsOnTheUIStateExecutor() {
    UIStateActor.preconditionIsolated()
    UIStateActor.shared.assertIsolated()
  }

  @Test func synchronousCallbackOnTheExecutorCanAssumeIsolation() async {
    // A plain closure (not statically isolated) called from code running on the actor passes
    // the runtime's isolation check, so assumeIsolated works from callbacks.
    let store = AuthStateStore(eventBufferLimit: 1)
    let state = await UIStateActor.run {
      let callback: () -> AuthState = {
        UIStateActor.assumeIsolated { store.state }
      }
      return callback()
    }
    #expect(state == .restoring)
  }

  @Test func assumingIsolationOffTheActorTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = UIStateActor.assumeIsolated { 1 }
    }
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
