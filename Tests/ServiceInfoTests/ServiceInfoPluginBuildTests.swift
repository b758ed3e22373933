import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

/// Builds a fixture package that uses ServiceInfoPlugin from this package: a misnamed plist
/// fails the build with the diagnostic, and a good one builds and exposes its values.
@Suite(.timeLimit(.minutes(10)))
struct ServiceInfoPluginBuildTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Run {
    let output: String
    let status: Int32
  }

  /// Runs `executable` to its end, off the cooperative threads.
  static func run(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) async throws -> Run {
    try await runBlocking { try blockingRun(executable, arguments, in: directory, environment: environment) }
  }

  private static func blockingRun(
    _ executable: String, _ arguments: [String], in directory: URL?, environment: [String: String]
  ) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try ProcessLaunchGate.shared.launch(process)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(output: String(decoding: data, as: UTF8.self), status: process.terminationStatus)
  }

  static var swift: String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    return path.split(separator: ":").map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
      ?? "/usr/bin/swift"
  }

  @Test func aMisnamedPlistFailsTheBuildAndAGoodOneExposesItsValues() async throws {
    let package = FileManager.default.temporaryDirectory.appendingPathComponent(
      "service-info-fixture-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: package) }
    let app = package.appendingPathComponent("Sources/App")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    let identity = Self.root.lastPathComponent.lowercased()
    try """
    // swift-tools-version:6.2
    import PackageDescription

    let package = Package(
      name: "Fixture",
      dependencies: [.package(path: "\(Self.root.path)")],
      targets: [
        .executableTarget(name: "App", plugins: [.plugin(name: "ServiceInfoPlugin", package: "\(identity)")])
      ]
    )
    """.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try """
    print("project:", SignInConfiguration.projectID)
    print("scheme:", SignInConfiguration.reversedClientID ?? "none")
    """.write(to: app.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
    let plist = try Data(contentsOf: Self.root.appendingPathComponent("Tests/ServiceInfoTests/Fixtures/valid.plist"))
    let misnamed = app.appendingPathComponent("GoogleService-Info-2.plist")
    try plist.write(to: misnamed)

    let failing = try await Self.run(Self.swift, ["build"], in: package)
    #expect(failing.status != 0, "\(failing.output)")
    #expect(failing.output.contains("GoogleService-Info-2.plist:1: error:"), "\(failing.output)")
    #expect(failing.output.contains("Rename it to GoogleService-Info.plist"))

    try FileManager.default.moveItem(at: misnamed, to: app.appendingPathComponent("GoogleService-Info.plist"))
    let building = try await Self.run(Self.swift, ["build"], in: package)
    #expect(building.status == 0, "\(building.output)")
    let ran = try await Self.run(package.appendingPathComponent(".build/debug/App").path, [], in: package)
    #expect(ran.output == "project: signinkit-quickstart\nscheme: com.googleusercontent.apps.1234567890-quickstart\n")
  }
}
