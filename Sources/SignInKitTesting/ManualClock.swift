import Foundation
import SignInConcurrency
import SignInKit

/// A `Clock` that moves only when a test calls ``advance(by:)``, with a matching wall-clock
/// ``date`` for code that needs `Date`s (token expiry).
///
/// ```swift
/// let clock = ManualClock()
/// let auth = Auth(backend: backend, store: store, clock: clock, now: { clock.date })
/// await clock.sleepers(atLeast: 1)      // the proactive refresh is parked
/// clock.advance(by: .seconds(3300))     // wakes it, without sleeping for real
/// ```
///
/// - Concurrency: `Sendable`, lock-guarded, any isolation. Continuations are resumed outside
///   the lock.
public final class ManualClock: Clock, Sendable {
  /// A point on this clock: the time advanced since it was created.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Instant: InstantProtocol, Sendable {
    public var offset: Duration
    public init(offset: Duration) { self.offset = offset }
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var announced: Set<UInt64> = []
    var cancelledEarly: Set<UInt64> = []
    var watchers = ConditionWaiters<Int>()
    var nextID: UInt64 = 0
  }

  private let state = Locked(State())
  private let start: Date

  /// A clock at offset zero whose ``date`` starts at `start`.
  public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.start = start
  }

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// The wall-clock time matching ``now``: `start` plus the time advanced.
  public var date: Date {
    start.addingTimeInterval(state.withLock { $0.now.offset }.seconds)
  }

  /// How many tasks are asleep on this clock now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      defer { state.nextID &+= 1 }
      state.announced.insert(state.nextID)
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let (outcome, watchers) = state.withLock {
          state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
          state.announced.remove(id)
          if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), []) }
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (nil, state.watchers.takeSatisfied(by: state.sleepers.count))
        }
        if let outcome { continuation.resume(with: outcome) }
        for watcher in watchers { watcher.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        if state.announced.remove(id) != nil {
          state.cancelledEarly.insert(id)
          return nil
        }
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes, in deadline order, every sleeper whose deadline has passed.
  public func advance(by duration: Duration) {
    let due = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until at least `count` tasks are asleep on this clock, so a test advances time
  /// exactly when the code under test waits on it. Does not poll; returns early when the
  /// calling task is cancelled.
  public func sleepers(atLeast count: Int) async {
    await state.wait(on: \.watchers, observing: { $0.sleepers.count }, until: { $0 >= count })
  }
}
