import SignInKit

/// A round trip to an actor from a detached task: `UIStateActor` against a default actor (the
/// target: within 2x) and `MainActor`.
enum ActorHopBench {
  actor Plain {
    var count = 0
    func ping() { count += 1 }
  }

  @UIStateActor static var uiCount = 0
  @UIStateActor static func pingUI() { uiCount += 1 }
  @MainActor static var mainCount = 0
  @MainActor static func pingMain() { mainCount += 1 }

  static func run(roundTrips: Int) async -> [BenchResult] {
    let ui = await Task.detached { await Measure.time { for _ in 0..<roundTrips { await pingUI() } } }.value
    let main = await Task.detached { await Measure.time { for _ in 0..<roundTrips { await pingMain() } } }.value
    let plain = Plain()
    let actor = await Task.detached { await Measure.time { for _ in 0..<roundTrips { await plain.ping() } } }.value
    let perTrip = { (milliseconds: Double) in milliseconds * 1e6 / Double(roundTrips) }
    return [
      BenchResult(
        name: "1b actor round trip (\(roundTrips))", subject: "UIStateActor", value: perTrip(ui),
        baselineName: "default actor", baseline: perTrip(actor), unit: "ns/trip", target: "≤ 2x",
        met: ui <= actor * 2, note: nil),
      BenchResult(
        name: "1b actor round trip (\(roundTrips))", subject: "UIStateActor", value: perTrip(ui), baselineName: "MainActor",
        baseline: perTrip(main), unit: "ns/trip", target: nil, met: nil, note: nil),
    ]
  }
}
