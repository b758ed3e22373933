import Foundation

/// `signin` from start until it is ready for a command (it opens its data folder, restores the
/// previous sign-in and leaves at once: `signin --data-dir DIR -c quit`, after a first run made
/// the folder and its IdP keys) against a hello-world Swift binary compiled
/// in the same run (`swiftc -O`), or `signin --version` when no compiler is on the PATH. A second
/// row sets `signin` against a hello world that links Foundation and FoundationNetworking, as
/// every binary linking SignInKit does on Linux: loading those libraries is most of the gap.
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
    defer { try? FileManager.default.removeItem(at: helloFolder) }
    let (baselineName, baseline) =
      try helloWorld(named: "hello", source: #"print("hello")"#) ?? ("signin --version", [signin.path, "--version"])
    let baselineTime = try median(runs: runs, baseline)
    let linked = try helloWorld(
      named: "hello-networking",
      source: "import Foundation\nimport FoundationNetworking\nprint(\"hello\", URLRequest(url: URL(fileURLWithPath: \"/\")).url != nil)")
    let linkedTime = try linked.map { try median(runs: runs, $0.1) }
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-data-\(getpid())")
    defer { try? FileManager.default.removeItem(at: data) }
    let subjectTime = try median(runs: runs, [signin.path, "--data-dir", data.path, "-c", "quit"])
    let version = try median(runs: runs, [signin.path, "--version"])
    var results = [
      BenchResult(
        name: "6 signin start to ready (median of \(runs))", subject: "signin -c quit", value: subjectTime,
        baselineName: baselineName, baseline: baselineTime, unit: "ms", target: "≤ 1.5x",
        met: subjectTime <= baselineTime * 1.5,
        note: String(format: "signin --version (load and exit): %.1f ms", version))
    ]
    if let linkedTime {
      results.append(
        BenchResult(
          name: "6 signin start to ready", subject: "signin -c quit", value: subjectTime,
          baselineName: "hello world linking Foundation + FoundationNetworking", baseline: linkedTime, unit: "ms",
          target: "≤ 1.25x", met: subjectTime <= linkedTime * 1.25,
          note: "the libraries every binary linking SignInKit loads on Linux; the IdP keys load on first use"))
    }
    return results
  }

  static let helloFolder = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-hello-\(getpid())")

  /// Compiles `source` with the toolchain's swiftc, when there is one.
  static func helloWorld(named name: String, source text: String) throws -> (String, [String])? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    guard let swiftc = path.split(separator: ":").map({ "\($0)/swiftc" }).first(where: FileManager.default.isExecutableFile)
    else { return nil }
    let folder = helloFolder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let source = folder.appendingPathComponent("\(name).swift")
    try Data(text.utf8).write(to: source)
    let binary = folder.appendingPathComponent(name)
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
