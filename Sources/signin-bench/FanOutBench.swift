import Foundation
import SignInConcurrency
import SignInKit
import Synchronization

/// State fan-out: SignInKit's broadcaster against bare AsyncStream yields to the same
/// subscribers (same buffering: newest 1, as the state stream conflates), NotificationCenter
/// and plain closures. Nanoseconds per (subscriber × change); every AsyncStream subscriber must
/// end on the last value.
enum FanOutBench {
  static func run(subscribers: Int, changes: Int) async -> [BenchResult] {
    // Rounds alternate which stream goes first, so warm-up and the scheduler's mood favour
    // neither; each figure is the median over the rounds. On two cores one delivery costs
    // mostly a consumer wake-up, which varies by tens of percent between runs: the note gives
    // the spread of the per-round ratios.
    let rounds = subscribers * changes > 1_000_000 ? 3 : 7
    var broadcasters: [Outcome] = []
    var bares: [Outcome] = []
    var locked: [Double] = []
    for round in 0..<rounds {
      locked.append(await lockedStreamNanoseconds(subscribers: subscribers, changes: changes).nanoseconds)
      if round.isMultiple(of: 2) {
        bares.append(await bareStreamNanoseconds(subscribers: subscribers, changes: changes))
        broadcasters.append(await broadcasterNanoseconds(subscribers: subscribers, changes: changes))
      } else {
        broadcasters.append(await broadcasterNanoseconds(subscribers: subscribers, changes: changes))
        bares.append(await bareStreamNanoseconds(subscribers: subscribers, changes: changes))
      }
    }
    let broadcaster = Outcome(
      nanoseconds: Measure.percentile(broadcasters.map(\.nanoseconds), 0.5),
      allEndedOnLast: broadcasters.allSatisfy(\.allEndedOnLast))
    let bare = Outcome(
      nanoseconds: Measure.percentile(bares.map(\.nanoseconds), 0.5), allEndedOnLast: bares.allSatisfy(\.allEndedOnLast)
    )
    let ratios = zip(broadcasters, bares).map { $0.nanoseconds / $1.nanoseconds }.sorted()
    let spread =
      String(format: "per-round ratios %.2f–%.2fx", ratios.first ?? 0, ratios.last ?? 0) + " over \(rounds) rounds"
    let notifications = notificationNanoseconds(subscribers: subscribers, changes: changes)
    let closures = closureNanoseconds(subscribers: subscribers, changes: changes)
    let label = "fan-out to \(subscribers) over \(changes) changes"
    return [
      BenchResult(
        name: "1 \(label)", subject: "Broadcaster", value: broadcaster.nanoseconds, baselineName: "bare AsyncStream",
        baseline: bare.nanoseconds, unit: "ns/delivery", target: "≤ 1.25x",
        met: broadcaster.nanoseconds <= bare.nanoseconds * 1.25 && broadcaster.allEndedOnLast,
        note: (broadcaster.allEndedOnLast && bare.allEndedOnLast
          ? "every subscriber ended on the last value" : "a subscriber MISSED the last value") + "; \(spread)"),
      BenchResult(
        name: "1 \(label)", subject: "AsyncStream + one lock per change", value: Measure.percentile(locked, 0.5),
        baselineName: "bare AsyncStream", baseline: bare.nanoseconds, unit: "ns/delivery", target: nil, met: nil,
        note: "what holding a lock around the yields costs by itself"),
      BenchResult(
        name: "1 \(label)", subject: "NotificationCenter", value: notifications, baselineName: "closures",
        baseline: closures, unit: "ns/delivery", target: nil, met: nil, note: nil),
      BenchResult(
        name: "1 \(label)", subject: "Broadcaster", value: broadcaster.nanoseconds, baselineName: "closures",
        baseline: closures, unit: "ns/delivery", target: nil, met: nil, note: nil),
    ]
  }

  struct Outcome {
    var nanoseconds: Double
    var allEndedOnLast: Bool
  }

  /// Consumers that read until the last value; returns whether each ended on it.
  static func consume(_ streams: [AsyncStream<Int>], last: Int) -> Task<Bool, Never> {
    Task {
      await withTaskGroup(of: Bool.self) { group in
        for stream in streams {
          group.addTask {
            var seen = -1
            for await value in stream {
              seen = value
              if value == last { break }
            }
            return seen == last
          }
        }
        var all = true
        for await ended in group { all = all && ended }
        return all
      }
    }
  }

  static func broadcasterNanoseconds(subscribers: Int, changes: Int) async -> Outcome {
    let broadcaster = Broadcaster<Int>(replaying: -1)
    let streams = (0..<subscribers).map { _ in broadcaster.subscribe() }
    let consumers = consume(streams, last: changes - 1)
    let elapsed = await Measure.time {
      for value in 0..<changes { broadcaster.send(value) }
      _ = await consumers.value
    }
    return Outcome(nanoseconds: elapsed * 1e6 / Double(subscribers * changes), allEndedOnLast: await consumers.value)
  }

  static func bareStreamNanoseconds(subscribers: Int, changes: Int) async -> Outcome {
    var continuations: [AsyncStream<Int>.Continuation] = []
    let streams = (0..<subscribers).map { _ in
      let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
      continuations.append(continuation)
      return stream
    }
    let consumers = consume(streams, last: changes - 1)
    let elapsed = await Measure.time {
      for value in 0..<changes {
        for continuation in continuations { continuation.yield(value) }
      }
      _ = await consumers.value
    }
    return Outcome(nanoseconds: elapsed * 1e6 / Double(subscribers * changes), allEndedOnLast: await consumers.value)
  }

  /// Bare yields, each change under one lock as the broadcaster takes it: what the lock costs.
  static func lockedStreamNanoseconds(subscribers: Int, changes: Int) async -> Outcome {
    var continuations: [AsyncStream<Int>.Continuation] = []
    let streams = (0..<subscribers).map { _ in
      let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
      continuations.append(continuation)
      return stream
    }
    let lock = Locked(continuations)
    let consumers = consume(streams, last: changes - 1)
    let elapsed = await Measure.time {
      for value in 0..<changes {
        lock.withLock { continuations in for continuation in continuations { continuation.yield(value) } }
      }
      _ = await consumers.value
    }
    return Outcome(nanoseconds: elapsed * 1e6 / Double(subscribers * changes), allEndedOnLast: await consumers.value)
  }

  static func notificationNanoseconds(subscribers: Int, changes: Int) -> Double {
    let center = NotificationCenter()
    let name = Notification.Name("signin.bench.state")
    let sink = Sink()
    let observers = (0..<subscribers).map { _ in
      center.addObserver(forName: name, object: nil, queue: nil) { note in
        sink.record(note.userInfo?["value"] as? Int ?? -1)
      }
    }
    let elapsed = Measure.milliseconds(
      Measure.clock.measure {
        for value in 0..<changes { center.post(name: name, object: nil, userInfo: ["value": value]) }
      })
    observers.forEach(center.removeObserver)
    return elapsed * 1e6 / Double(subscribers * changes)
  }

  static func closureNanoseconds(subscribers: Int, changes: Int) -> Double {
    let sink = Sink()
    let closures: [(Int) -> Void] = (0..<subscribers).map { _ in { sink.record($0) } }
    let elapsed = Measure.milliseconds(
      Measure.clock.measure {
        for value in 0..<changes {
          for closure in closures { closure(value) }
        }
      })
    return elapsed * 1e6 / Double(subscribers * changes)
  }

  /// Where synchronous observers write (a relaxed atomic store), so the work is not optimized away.
  final class Sink: Sendable {
    let value = Atomic<Int>(0)
    func record(_ newValue: Int) { value.store(newValue, ordering: .relaxed) }
  }
}
