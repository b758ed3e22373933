import Foundation
import Testing

@testable import ServiceInfo

/// The doctor's checklist as a value: what each configuration makes of it, with the two checks
/// that need SignInKit played by closures.
@Suite struct DoctorChecklistTests {
  static func plist(_ fixture: String, as name: String = ServiceInfo.fileName, target: String = "App") throws
    -> DoctorChecklist.Plist
  {
    let (path, contents) = try ServiceInfoTests.fixture(fixture, as: name)
    return DoctorChecklist.Plist(target: target, path: path, contents: contents)
  }

  static let goodHost: @Sendable (String) -> Result<String, DoctorChecklist.EmulatorHostProblem> = { .success($0) }

  @Test func aValidPlistPassesAndListsTheMethodsItEnables() async throws {
    let checklist = await DoctorChecklist.make(
      plists: [try Self.plist("valid.plist")], emulatorHost: nil, checkEmulatorHost: Self.goodHost, probe: nil)
    #expect(!checklist.hasFailures)
    #expect(checklist.checks.map(\.outcome) == [.passed, .passed, .passed, .passed, .note])
    #expect(
      checklist.text.hasPrefix(
        "SignInKit doctor\n✓ App: GoogleService-Info.plist is valid (project signinkit-quickstart)\n"))
    #expect(checklist.text.contains("✓ App: Google sign-in (client 1234567890-quickstart.apps.googleusercontent.com"))
    #expect(checklist.text.contains("– FIREBASE_AUTH_EMULATOR_HOST is not set"))
  }

  @Test func noPlistAndABadEmulatorHostFailWithTheirFixes() async {
    let checklist = await DoctorChecklist.make(
      plists: [], emulatorHost: "http://localhost:9099",
      checkEmulatorHost: { _ in .failure(.init(fix: "Use host:port, such as 127.0.0.1:9099.")) }, probe: nil)
    #expect(checklist.hasFailures)
    #expect(
      checklist.text == """
        SignInKit doctor
        ✗ No GoogleService-Info.plist in any target
            fix: Download it from Project settings → Your apps in the Firebase console into the app target's folder (the embedded backend needs none).
        ✗ FIREBASE_AUTH_EMULATOR_HOST=http://localhost:9099 is not host:port
            fix: Use host:port, such as 127.0.0.1:9099.

        """)
  }

  @Test func aDuplicateDownloadIsAFailureThatNamesTheFile() async throws {
    let checklist = await DoctorChecklist.make(
      plists: [try Self.plist("valid.plist", as: "GoogleService-Info (1).plist")], emulatorHost: "",
      checkEmulatorHost: Self.goodHost, probe: nil)
    #expect(checklist.hasFailures)
    #expect(checklist.checks.first?.line.hasPrefix("App: GoogleService-Info (1).plist: ") == true)
  }

  @Test func theOnlineProbeRunsForEachValidTargetAndReportsARefusal() async throws {
    let asked = ProbeLog()
    let checklist = await DoctorChecklist.make(
      plists: [try Self.plist("valid.plist", target: "App"), try Self.plist("valid.plist", target: "Widget")],
      emulatorHost: "127.0.0.1:9099", checkEmulatorHost: Self.goodHost,
      probe: { info in
        await asked.add(info.projectID)
        return .refused(code: "misconfigured", fix: "Check the API key.")
      })
    #expect(await asked.projects == ["signinkit-quickstart", "signinkit-quickstart"])
    #expect(
      checklist.text.contains(
        "✗ App: the backend did not accept the request (misconfigured)\n    fix: Check the API key."))
    #expect(
      checklist.text.contains(
        "✓ FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:9099: requests go to the emulator at 127.0.0.1:9099"))
  }

  actor ProbeLog {
    var projects: [String] = []
    func add(_ project: String) { projects.append(project) }
  }

  @Test(arguments: [
    ([], DoctorArguments()),
    (["--online"], DoctorArguments(online: true)),
    (
      ["--target", "App", "/a.plist", "--target", "B", "/b.plist"],
      DoctorArguments(plists: [.init(name: "App", path: "/a.plist"), .init(name: "B", path: "/b.plist")])
    ),
  ])
  func theCommandLineIsRead(_ arguments: [String], _ expected: DoctorArguments) throws {
    #expect(try DoctorArguments.parse(arguments) == expected)
  }

  @Test(arguments: [["--target", "App"], ["--verbose"]])
  func aWrongCommandLineSaysWhatToPass(_ arguments: [String]) {
    let error = #expect(throws: DoctorArguments.UsageError.self) { try DoctorArguments.parse(arguments) }
    #expect(error?.message.hasSuffix(DoctorArguments.usage) == true)
  }
}
