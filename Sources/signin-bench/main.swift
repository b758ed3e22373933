// signin-bench: SignInKit's hot paths, each next to a baseline measured in the same run.
//
//   swift run -c release signin-bench [--quick] [--json] [--only 1b,6]
import Foundation

var options = CommandLine.arguments.dropFirst()
var quick = false
var json = false
var only: Set<String>?
while let option = options.popFirst() {
  switch option {
  case "--quick": quick = true
  case "--json": json = true
  case "--only":
    guard let rows = options.popFirst(), !rows.isEmpty else { usage("--only needs a list of rows, e.g. --only 1b,6") }
    only = Set(rows.split(separator: ",").map(String.init))
  default: usage("Unknown option \(option).")
  }
}

func usage(_ problem: String) -> Never {
  FileHandle.standardError.write(
    Data("\(problem)\nusage: signin-bench [--quick] [--json] [--only 1,1b,1c,2,3,4,5,6,7,8,9]\n".utf8))
  exit(2)
}

/// Whether row `row` was asked for (all rows unless `--only` lists some).
@MainActor func wanted(_ row: String) -> Bool { only?.contains(row) ?? true }

// Start-up runs first, while this process is idle: later rows leave threads and memory behind
// (a stalled subscriber, the emulator's sockets) that compete with the launched processes on a
// small machine. It is printed in its place, after row 5.
let startup = wanted("6") ? try await StartupBench.run(runs: quick ? 31 : 61) : []
var results: [BenchResult] = []
let fanOuts = quick ? [(1, 10_000), (100, 1_000), (1_000, 100)] : [(1, 100_000), (100, 100_000), (10_000, 1_000)]
if wanted("1") {
  for (subscribers, changes) in fanOuts {
    results += await FanOutBench.run(subscribers: subscribers, changes: changes)
  }
}
if wanted("1b") { results += await ActorHopBench.run(roundTrips: quick ? 10_000 : 100_000) }
if wanted("1c") { results += await PublishLatencyBench.run(changes: quick ? 2_000 : 20_000) }
if wanted("2") { results += try await AuthBench.refreshStorm(callers: quick ? 1_000 : 10_000) }
if wanted("3") { results += try await AuthBench.coldRestore(runs: quick ? 5 : 21) }
if wanted("4") { results += try await AuthBench.passwordSignIn(runs: quick ? 9 : 21) }
if wanted("5") { results += await MemoryBench.run(changes: quick ? 100_000 : 1_000_000) }
results += startup
if wanted("7") {
  results += try await EmulatorBench.run(
    clients: 32, rounds: quick ? 10 : 40, firebaseRounds: quick ? 1 : 3, requests: quick ? 10_000 : 100_000)
}

if wanted("8") {
  results += try await StorageScaleBench.run(
    small: 1_000, large: 100_000, rounds: quick ? 4 : 10, callsPerRound: quick ? 10 : 20)
}

if wanted("9") { results += try await InProcessServiceBench.run(rounds: quick ? 10 : 40, callsPerRound: 50) }

if json {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  print(String(decoding: try encoder.encode(results), as: UTF8.self))
} else {
  func figure(_ value: Double) -> String {
    value >= 100
      ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
  }
  print("signin-bench\(quick ? " --quick" : "") — every figure next to its baseline from this run")
  for result in results {
    let verdict = result.met.map { $0 ? "met" : "MISSED" } ?? ""
    print(result.name)
    print(
      "  \(result.subject): \(figure(result.value)) \(result.unit) vs \(result.baselineName): "
        + "\(figure(result.baseline)) \(result.unit) = \(figure(result.ratio))x"
        + (result.target.map { "  [target \($0): \(verdict)]" } ?? ""))
    if let note = result.note { print("  \(note)") }
  }
}
