import Foundation

/// `signin` from start until it is ready for a command (it opens its data folder, restores the
/// previous sign-in and leaves at once: `signin --data-dir DIR -c quit`, after a first run made
/// the folder and its IdP keys) against a hello-world Swift binary compiled
/// in the same run (`swiftc -O`), or `signin --version` when no compiler is on the PATH.
enum StartupBench {
  static func run(runs: Int) async throws -> [BenchResult] {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let signin = here.appendingPathComponent("signin")
    guard FileManager.default.isExecutableFile(atPath: signin.path) else {
      return [
        BenchResult(
          name: "6 signin start", subject: "signin", value: 0, baselineName: "hello world", baseline: 0, unit: "ms",
          target: "≤ 1.5x", met: nil, note: "signin is not built beside signin-bench; run `swift build -c release` first")
      ]
    }
    let (baselineName, baseline) = try helloWorld() ?? ("signin --version", [signin.path, "--version"])
    defer { try? FileManager.default.removeItem(at: helloFolder) }
    let baselineTime = try median(runs: runs, baseline)
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-data-\(getpid())")
    defer { try? FileManager.default.removeItem(at: data) }
    let subjectTime = try median(runs: runs, [signin.path, "--data-dir", data.path, "-c", "quit"])
    return [
      BenchResult(
        name: "6 signin start to ready (median of \(runs))", subject: "signin -c quit", value: subjectTime,
        baselineName: baselineName, baseline: baselineTime, unit: "ms", target: "≤ 1.5x",
        met: subjectTime <= baselineTime * 1.5, note: nil)
    ]
  }

  static let helloFolder = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-hello-\(getpid())")

  /// Compiles `print("hello")` with the toolchain's swiftc, when there is one.
  static func helloWorld() throws -> (String, [String])? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    guard let swiftc = path.split(separator: ":").map({ "\($0)/swiftc" }).first(where: FileManager.default.isExecutableFile)
    else { return nil }
    let folder = helloFolder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let source = folder.appendingPathComponent("hello.swift")
    try Data(#"print("hello")"#.utf8).write(to: source)
    let binary = folder.appendingPathComponent("hello")
    guard try launch([swiftc, "-O", source.path, "-o", binary.path]) == 0 else { return nil }
    return ("hello-world Swift binary", [binary.path])
  }

  @discardableResult
  static func launch(_ command: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  static func median(runs: Int, _ command: [String]) throws -> Double {
    try launch(command)  // warm the page cache
    var samples: [Double] = []
    for _ in 0..<runs {
      let start = ContinuousClock.now
      try launch(command)
      samples.append(Measure.milliseconds(ContinuousClock.now - start))
    }
    return Measure.percentile(samples, 0.5)
  }
}
