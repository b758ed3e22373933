import Foundation
import Testing

@testable import ServiceInfo

/// The checks behind ServiceInfoPlugin, on fixture plists.
@Suite struct ServiceInfoTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func fixture(_ name: String, as fileName: String = ServiceInfo.fileName) throws -> (
    path: String, contents: Data
  ) {
    ("/app/Sources/App/\(fileName)", try Data(contentsOf: fixtures.appendingPathComponent(name)))
  }

  @Test func aValidPlistGivesEveryValueAndTheGeneratedSource() throws {
    let report = ServiceInfo.check([try Self.fixture("valid.plist")])
    #expect(report.diagnostics.isEmpty)
    let info = try #require(report.info)
    #expect(info.apiKey == "AIzaSyQuickStartExampleKey0000000000000")
    #expect(info.projectID == "signinkit-quickstart")
    #expect(info.googleAppID == "1:1234567890:ios:0123456789abcdef")
    #expect(info.clientID == "1234567890-quickstart.apps.googleusercontent.com")
    #expect(info.reversedClientID == "com.googleusercontent.apps.1234567890-quickstart")
    #expect(info.bundleID == "dev.signinkit.quickstart")
    let source = info.swiftSource(from: "/app/Sources/App/GoogleService-Info.plist")
    #expect(source.contains(#"static let projectID = "signinkit-quickstart""#))
    #expect(source.contains("static let serviceInfo = FirebaseConfiguration("))
    #expect(!source.contains("#warning"))
  }

  @Test(arguments: ["GoogleService-Info-2.plist", "GoogleService-Info (1).plist"])
  func aMisnamedDownloadFailsWithTheRename(_ name: String) throws {
    let report = ServiceInfo.check([try Self.fixture("valid.plist", as: name)])
    #expect(report.hasErrors)
    #expect(report.info == nil)
    let diagnostic = try #require(report.diagnostics.first)
    #expect(diagnostic.description.hasPrefix("/app/Sources/App/\(name):1: error: "))
    #expect(diagnostic.message.contains("Rename it to GoogleService-Info.plist"))
  }

  @Test func missingKeysAreNamed() throws {
    let report = ServiceInfo.check([try Self.fixture("missing-keys.plist")])
    #expect(report.hasErrors)
    let messages = report.diagnostics.map(\.message)
    #expect(messages.contains { $0.contains("has no API_KEY") })
    #expect(messages.contains { $0.contains("has no GOOGLE_APP_ID") })
    #expect(!messages.contains { $0.contains("has no PROJECT_ID") })
  }

  @Test func aWrongReversedClientIDPointsAtItsLineAndGivesTheRightValue() throws {
    let report = ServiceInfo.check([try Self.fixture("wrong-reversed.plist")])
    let diagnostic = try #require(report.diagnostics.first { $0.severity == .error })
    #expect(diagnostic.line == 13)
    #expect(diagnostic.message.contains("Use 'com.googleusercontent.apps.1234567890-quickstart'"))
  }

  @Test func aMalformedPlistSaysToDownloadItAgain() throws {
    let report = ServiceInfo.check([try Self.fixture("malformed.plist")])
    #expect(report.hasErrors)
    #expect(report.diagnostics.first?.message.contains("not a valid property list") == true)
  }

  @Test func twoPlistsInOneTargetFail() throws {
    let first = try Self.fixture("valid.plist")
    let second = ("/app/Sources/App/Resources/GoogleService-Info.plist", first.contents)
    let report = ServiceInfo.check([first, second])
    #expect(report.hasErrors)
    #expect(report.diagnostics.first?.message.contains("A second GoogleService-Info.plist") == true)
  }

  @Test func suspiciousValuesAreWarningsAndAnEmulatorProjectWarnsInRelease() throws {
    let report = ServiceInfo.check([try Self.fixture("odd-key.plist")])
    #expect(!report.hasErrors)
    #expect(report.diagnostics.map(\.severity) == [.warning])
    #expect(report.diagnostics.first?.message.contains("does not look like a Firebase Web API key") == true)
    let source = try #require(report.info).swiftSource(from: "GoogleService-Info.plist")
    #expect(source.contains("#if !DEBUG"))
    #expect(source.contains("emulator-only project 'demo-signinkit'"))
  }

  @Test func aTargetWithoutAPlistNeedsNothing() {
    #expect(ServiceInfo.check([("/app/Sources/App/Info.plist", Data())]) == .init(info: nil, diagnostics: []))
  }
}
