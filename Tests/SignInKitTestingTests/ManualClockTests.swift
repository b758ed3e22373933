import Foundation
import SignInKitTesting
import Testing

@Suite(.timeLimit(.minutes(3)))
struct ManualClockTests {
  @Test func advanceWakesSleepersWhoseDeadlinePassed() async throws {
    let clock = ManualClock()
    let early = Task { try await clock.sleep(for: .seconds(5)) }
    let late = Task { try await clock.sleep(for: .seconds(50)) }
    await clock.sleepers(atLeast: 2)
    clock.advance(by: .seconds(5))
    try await early.value
    #expect(clock.sleeperCount == 1)
    clock.advance(by: .seconds(45))
    try await late.value
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancelledSleeperThrowsAndLeaves() async {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
    await clock.sleepers(atLeast: 1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleeperCancelledBeforeItParksThrowsAtOnce() async {
    let clock = ManualClock()
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(5))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func pastDeadlineReturnsWithoutParking() async throws {
    let clock = ManualClock()
    clock.advance(by: .seconds(10))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
    #expect(clock.sleeperCount == 0)
  }

  @Test func dateFollowsTheClock() {
    let start = Date(timeIntervalSince1970: 1_000)
    let clock = ManualClock(start: start)
    clock.advance(by: .milliseconds(1_500))
    #expect(clock.date == Date(timeIntervalSince1970: 1_001.5))
  }
}
