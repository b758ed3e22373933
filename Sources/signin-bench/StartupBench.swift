import Foundation

/// `signin` from start until it is ready for a command (it checks its data folder, restores the
/// previous sign-in and leaves at once: `signin --data-dir DIR -c quit`, after a first run made
/// the folder; the accounts database opens at the first command that needs it) against a hello
/// world that links Foundation and FoundationNetworking, as every binary linking SignInKit does
/// on Linux (the target: within 1.15x). Both are compiled or built in the same run
/// (`swiftc -O`); without a compiler on the PATH only the row against `signin --version` is
/// printed. A second row, for scale, sets `signin` against a hello world that links only the
/// Swift runtime.
enum StartupBench {
  static func run(runs: Int) async throws -> [BenchResult] {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let signin = here.appendingPathComponent("signin")
    guard FileManager.default.isExecutableFile(atPath: signin.path) else {
      return [
        BenchResult(
          name: "6 signin start", subject: "signin", value: 0, baselineName: "hello world", baseline: 0, unit: "ms",
          target: "≤ 1.15x", met: nil,
          note: "signin is not built beside signin-bench; run `swift build -c release` first")
      ]
    }
    defer { try? FileManager.default.removeItem(at: helloFolder) }
    let hello = try helloWorld(named: "hello", source: #"print("hello")"#)
    let linked = try helloWorld(
      named: "hello-networking",
      source:
        "import Foundation\nimport FoundationNetworking\nprint(\"hello\", URLRequest(url: URL(fileURLWithPath: \"/\")).url != nil)"
    )
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bench-data-\(getpid())")
    defer { try? FileManager.default.removeItem(at: data) }
    let ready = [signin.path, "--data-dir", data.path, "-c", "quit"]
    let version = [signin.path, "--version"]
    try launch(ready)  // the first run makes the data folder and the IdP keys
    let times = try medians(runs: runs, of: [ready, version] + [hello, linked].compactMap { $0?.1 })
    let (readyTime, versionTime) = (times[0], times[1])
    var results: [BenchResult] = []
    if linked != nil {
      let linkedTime = times[hello == nil ? 2 : 3]
      results.append(
        BenchResult(
          name: "6 signin start to ready (median of \(runs), interleaved)", subject: "signin -c quit", value: readyTime,
          baselineName: "hello world linking Foundation + FoundationNetworking", baseline: linkedTime, unit: "ms",
          target: "≤ 1.15x", met: readyTime <= linkedTime * 1.15,
          note: String(
            format:
              "the libraries every binary linking SignInKit loads on Linux; signin --version (load and exit): %.1f ms",
            versionTime)))
    }
    let (baselineName, baselineTime) =
      hello.map { _ in ("hello-world Swift binary", times[2]) } ?? ("signin --version", versionTime)
    results.append(
      BenchResult(
        name: "6 signin start to ready", subject: "signin -c quit", value: readyTime, baselineName: baselineName,
        baseline: baselineTime, unit: "ms", target: nil, met: nil,
        note: "for scale: a binary that links only the Swift runtime skips loading Foundation"))
    return results
  }

  static let helloFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "signin-bench-hello-\(getpid())")

  /// Compiles `source` with the toolchain's swiftc, when there is one.
  static func helloWorld(named name: String, source text: String) throws -> (String, [String])? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    guard
      let swiftc = path.split(separator: ":").map({ "\($0)/swiftc" }).first(where: FileManager.default.isExecutableFile)
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

  /// The median time of each command over `runs` rounds; each round launches every command once,
  /// in turn, so a burst of load on the machine lands on all of them alike.
  static func medians(runs: Int, of commands: [[String]]) throws -> [Double] {
    for command in commands { try launch(command) }  // warm the page cache
    var samples: [[Double]] = Array(repeating: [], count: commands.count)
    for _ in 0..<runs {
      for (index, command) in commands.enumerated() {
        let start = ContinuousClock.now
        try launch(command)
        samples[index].append(Measure.milliseconds(ContinuousClock.now - start))
      }
    }
    return samples.map { Measure.percentile($0, 0.5) }
  }
}
