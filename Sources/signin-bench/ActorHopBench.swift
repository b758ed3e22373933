import SignInKit

/// A round trip from one actor to another and back: `UIStateActor` against a default actor (the
/// target: within 2x) and `MainActor`. The caller is an actor that counts each reply in its own
/// state, so every trip really hops there and back: from a nonisolated loop the optimizer may drop
/// the hop back when it can see the callee, which times a call, not a hop (it did for the
/// default actor, 20 ns against 120 ns). Each actor is warmed up, then the three are timed in
/// alternating rounds and each reports its median round, so a slow first round or a burst of load
/// on the machine lands on all three alike.
enum ActorHopBench {
  actor Plain {
    var count = 0
    func ping() { count += 1 }
  }

  actor Caller {
    var replies = 0
    func trips(_ count: Int, to plain: Plain) async {
      for _ in 0..<count {
        await plain.ping()
        replies += 1
      }
    }
    func tripsToUIStateActor(_ count: Int) async {
      for _ in 0..<count {
        await pingUI()
        replies += 1
      }
    }
    func tripsToMainActor(_ count: Int) async {
      for _ in 0..<count {
        await pingMain()
        replies += 1
      }
    }
  }

  @UIStateActor static var uiCount = 0
  @UIStateActor static func pingUI() { uiCount += 1 }
  @MainActor static var mainCount = 0
  @MainActor static func pingMain() { mainCount += 1 }

  static let rounds = 7

  static func run(roundTrips: Int) async -> [BenchResult] {
    let plain = Plain()
    let caller = Caller()
    let perRound = max(1, roundTrips / rounds)
    let subjects: [@Sendable () async -> Void] = [
      { await caller.tripsToUIStateActor(perRound) },
      { await caller.tripsToMainActor(perRound) },
      { await caller.trips(perRound, to: plain) },
    ]
    for subject in subjects { await Task.detached { await subject() }.value }  // warm-up
    var samples: [[Double]] = Array(repeating: [], count: subjects.count)
    for round in 0..<rounds {
      // Rotate who goes first, so no actor always runs right after another's burst.
      for offset in 0..<subjects.count {
        let index = (round + offset) % subjects.count
        let subject = subjects[index]
        let milliseconds = await Task.detached { await Measure.time { await subject() } }.value
        samples[index].append(milliseconds * 1e6 / Double(perRound))
      }
    }
    let ui = Measure.percentile(samples[0], 0.5)
    let main = Measure.percentile(samples[1], 0.5)
    let actor = Measure.percentile(samples[2], 0.5)
    let name = "1b actor round trip from an actor (median of \(rounds) × \(perRound))"
    return [
      BenchResult(
        name: name, subject: "UIStateActor", value: ui, baselineName: "default actor", baseline: actor,
        unit: "ns/trip", target: "≤ 2x", met: ui <= actor * 2, note: nil),
      BenchResult(
        name: name, subject: "UIStateActor", value: ui, baselineName: "MainActor", baseline: main,
        unit: "ns/trip", target: nil, met: nil, note: nil),
    ]
  }
}
