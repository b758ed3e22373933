// signin-bench: SignInKit's hot paths, each next to a baseline measured in the same run.
//
//   swift run -c release signin-bench [--quick] [--json]
import Foundation

let arguments = Set(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let json = arguments.contains("--json")
if let unknown = arguments.subtracting(["--quick", "--json"]).first {
  FileHandle.standardError.write(Data("Unknown option \(unknown).\nusage: signin-bench [--quick] [--json]\n".utf8))
  exit(2)
}

var results: [BenchResult] = []
let fanOuts = quick ? [(1, 10_000), (100, 1_000), (1_000, 100)] : [(1, 100_000), (100, 100_000), (10_000, 1_000)]
for (subscribers, changes) in fanOuts {
  results += await FanOutBench.run(subscribers: subscribers, changes: changes)
}
results += await ActorHopBench.run(roundTrips: quick ? 10_000 : 100_000)
results += await PublishLatencyBench.run(changes: quick ? 2_000 : 20_000)
results += try await AuthBench.refreshStorm(callers: quick ? 1_000 : 10_000)
results += try await AuthBench.coldRestore(runs: quick ? 5 : 21)
results += try await AuthBench.passwordSignIn(runs: quick ? 3 : 21)
results += await MemoryBench.run(changes: quick ? 100_000 : 1_000_000)
results += try await EmulatorBench.run(clients: quick ? 8 : 32, rounds: quick ? 5 : 20, requests: quick ? 2_000 : 100_000)
results += try await StartupBench.run(runs: quick ? 5 : 21)

if json {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  print(String(decoding: try encoder.encode(results), as: UTF8.self))
} else {
  func figure(_ value: Double) -> String {
    value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
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
