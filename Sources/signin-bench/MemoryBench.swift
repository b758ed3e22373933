import Foundation
import SignInConcurrency
import SignInKit

/// One subscriber that never reads while the state changes `changes` times: the state stream
/// keeps only the newest value for it, so memory must not grow with the changes.
enum MemoryBench {
  static func run(changes: Int) async -> [BenchResult] {
    let states = Broadcaster<Int>(replaying: 0)
    let events = Broadcaster<Int>(bufferingNewest: 64)
    let reader = states.subscribe()  // never iterated: a stalled subscriber
    let eventReader = events.subscribe()
    let before = Measure.residentMegabytes()
    for value in 0..<changes {
      states.send(value)
      events.send(value)
    }
    let after = Measure.residentMegabytes()
    var iterator = reader.makeAsyncIterator()
    let latest = await iterator.next()
    withExtendedLifetime(eventReader) {}
    return [
      BenchResult(
        name: "5 memory: a stalled subscriber over \(changes) changes", subject: "RSS after", value: after,
        baselineName: "RSS before", baseline: before, unit: "MB", target: "growth < 5 MB", met: after - before < 5,
        note: "the stalled subscriber then reads \(latest.map(String.init) ?? "nothing") (the newest)")
    ]
  }
}
