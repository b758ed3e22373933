import Foundation
import Testing

/// The executables built beside the tests: the doctor's checklist, and the quick start, run so
/// that the README's example cannot rot.
@Suite(.timeLimit(.minutes(2)))
struct BuiltToolsTests {
  static func binary(_ name: String) -> URL {
    var directory = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), directory.path != "/" {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name)
  }

  static func run(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:]) async throws
    -> ServiceInfoPluginBuildTests.Run
  {
    try await ServiceInfoPluginBuildTests.run(binary(name).path, arguments, environment: environment)
  }

  static let fixtures = ServiceInfoTests.fixtures

  @Test func theDoctorPassesAGoodConfiguration() async throws {
    let run = try await Self.run(
      "signin-doctor", ["--target", "App", Self.fixtures.appendingPathComponent("valid.plist").path],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": "[::1]:9099"])
    #expect(run.status == 0, "\(run.output)")
    // The fixture is not named GoogleService-Info.plist, so the doctor says so.
    #expect(run.output.contains("✗ App: valid.plist") == false)
    #expect(run.output.contains("✓ FIREBASE_AUTH_EMULATOR_HOST=[::1]:9099"))
  }

  @Test func theDoctorFailsOnEveryProblemWithItsFix() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let misnamed = folder.appendingPathComponent("GoogleService-Info (1).plist")
    try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("valid.plist"), to: misnamed)
    let run = try await Self.run(
      "signin-doctor", ["--target", "App", misnamed.path],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": "http://localhost:9099"])
    #expect(run.status == 1)
    #expect(run.output.contains("✗ App: GoogleService-Info (1).plist"))
    #expect(run.output.contains("Rename it to GoogleService-Info.plist"))
    #expect(run.output.contains("✗ FIREBASE_AUTH_EMULATOR_HOST=http://localhost:9099 is not host:port"))
    #expect(run.output.contains("fix: "))
    let nothing = try await Self.run("signin-doctor", [], environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""])
    #expect(nothing.status == 1)
    #expect(nothing.output.contains("✗ No GoogleService-Info.plist in any target"))
  }

  @Test func theQuickStartRunsAsTheReadmeShows() async throws {
    let run = try await Self.run("signin-quickstart", environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Firebase project from GoogleService-Info.plist: signinkit-quickstart"))
    #expect(run.output.contains("state: signed in as ada@example.com"))
    // The same lines on every run, however the machine schedules it: the events in their order,
    // none dropped, after the states read along the flow.
    let lines = run.output.split(separator: "\n").map(String.init)
    let tail = lines.suffix(6).map {
      $0.replacingOccurrences(of: #"\([A-Za-z0-9]{28}\)"#, with: "(UID)", options: .regularExpression)
        .replacingOccurrences(of: #"[0-9]+ characters"#, with: "N characters", options: .regularExpression)
    }
    #expect(
      tail == [
        "ID token: N characters", "state: signed out (signed out by request)",
        "event: initial state: signed out (not signed in)", "event: signed in as ada@example.com (UID) (new user)",
        "event: signed out: signed out by request", "done",
      ])
  }
}
