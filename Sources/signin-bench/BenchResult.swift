import Foundation

/// One benchmark figure next to its baseline from the same run, and the target it is held to.
struct BenchResult: Codable {
  var name: String
  var subject: String
  var value: Double
  var baselineName: String
  var baseline: Double
  var unit: String
  /// The target, in words (`≤ 1.25x`), and whether it was met; `nil` when there is none.
  var target: String?
  var met: Bool?
  var note: String?

  var ratio: Double { baseline > 0 ? value / baseline : .infinity }
}

/// Timing and memory helpers.
enum Measure {
  static let clock = ContinuousClock()

  static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
  }

  /// Milliseconds `body` takes.
  static func time(_ body: () async throws -> Void) async rethrows -> Double {
    milliseconds(try await clock.measure { try await body() })
  }

  /// The median of `runs` timings of `body`, in milliseconds.
  static func median(runs: Int, _ body: () async throws -> Void) async rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<runs { samples.append(try await time(body)) }
    return percentile(samples, 0.5)
  }

  static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
  }

  /// Resident memory in megabytes of this process or the one with pid `process` (Linux
  /// `/proc/PID/statm`).
  static func residentMegabytes(of process: String = "self") -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(process)/statm", encoding: .utf8),
      let pages = text.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }
}

/// A bench that could not run; the message says why.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
