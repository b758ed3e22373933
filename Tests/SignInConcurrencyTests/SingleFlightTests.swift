import SignInConcurrency
import SignInKitTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3)))
struct SingleFlightTests {
  @Test func concurrentCallersShareOneRunAndItsResult() async throws {
    let flight = SingleFlight<Int>()
    let clock = ManualClock()
    let runs = Locked(0)
    let operation: @Sendable () async throws -> Int = {
      let run = runs.withLock {
        $0 += 1
        return $0
      }
      try await clock.sleep(for: .seconds(1))
      return run * 100
    }
    let callers = (0..<50).map { _ in Task { try await flight.run(operation) } }
    await flight.waiters(atLeast: 50)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    for caller in callers { #expect(try await caller.value == 100) }
    #expect(runs.withLock { $0 } == 1)
    #expect(!flight.isRunning)
  }

  @Test func callerAfterARunEndedStartsANewRun() async throws {
    let flight = SingleFlight<Int>()
    let runs = Locked(0)
    let operation: @Sendable () async throws -> Int = {
      runs.withLock {
        $0 += 1
        return $0
      }
    }
    #expect(try await flight.run(operation) == 1)
    #expect(try await flight.run(operation) == 2)
  }

  @Test func errorsReachEveryWaiter() async {
    let flight = SingleFlight<Int>()
    let clock = ManualClock()
    let callers = (0..<3).map { _ in
      Task {
        try await flight.run {
          try await clock.sleep(for: .seconds(1))
          throw Offline()
        }
      }
    }
    await flight.waiters(atLeast: 3)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(1))
    for caller in callers {
      await #expect(throws: Offline()) { try await caller.value }
    }
  }

  /// A caller whose run sleeps a second on `clock`, returned once the run is asleep.
  func sleepingCaller(of flight: SingleFlight<Int>, on clock: ManualClock) async -> Task<Int, any Error> {
    let caller = Task {
      try await flight.run {
        try await clock.sleep(for: .seconds(1))
        return 1
      }
    }
    await clock.sleepers(atLeast: 1)
    return caller
  }

  @Test func cancellingTheLastWaiterCancelsTheRun() async {
    let flight = SingleFlight<Int>()
    let clock = ManualClock()
    let caller = await sleepingCaller(of: flight, on: clock)
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(clock.sleeperCount == 0)
    #expect(!flight.isRunning)
  }

  @Test func waiterCancelledBeforeItParksLeavesAtOnce() async {
    let flight = SingleFlight<Int>()
    let caller = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await flight.run { 1 }
    }
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(flight.waiterCount == 0)
  }

  @Test func cancelStopsTheRunAndItsWaitersGetTheOperationsError() async {
    let flight = SingleFlight<Int>()
    let caller = await sleepingCaller(of: flight, on: ManualClock())
    flight.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
  }
}

/// What the flights above fail with.
private struct Offline: Error, Equatable {}
