import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// Where `FirebaseBackend` sends requests and what it knows about the app: the emulator host
/// from `FIREBASE_AUTH_EMULATOR_HOST` or `emulator(host:)`, and the project from a
/// `GoogleService-Info.plist` or a JSON file.
@Suite struct FirebaseConfigurationTests {
  @Test func emulatorHostsParseTheWayTheSDKsWriteThem() throws {
    #expect(try FirebaseEmulatorHost("127.0.0.1:9099").description == "127.0.0.1:9099")
    #expect(try FirebaseEmulatorHost("localhost").description == "localhost:9099")
    #expect(try FirebaseEmulatorHost("[::1]:9199").description == "[::1]:9199")
    #expect(try FirebaseEmulatorHost("[::1]").description == "[::1]:9099")
    #expect(try FirebaseEmulatorHost("::1").description == "[::1]:9099")
    for bad in ["http://127.0.0.1:9099", "", "host:port", "host:70000", "[::1", "127.0.0.1:9099/x"] {
      let error = try #require(throws: AuthError.self) { try FirebaseEmulatorHost(bad) }
      #expect(error.code == .misconfigured)
      #expect(error.message.contains("host:port"))
    }
  }

  @Test func theEnvironmentVariableSendsRequestsToTheEmulator() async throws {
    let transport = RecordingTransport([.status(200, #"{"email":"a@b.co"}"#)])
    let backend = try FirebaseBackend(
      apiKey: "K", projectID: "p", transport: transport, environment: ["FIREBASE_AUTH_EMULATOR_HOST": "[::1]:9099"])
    #expect(backend.emulatorHost?.description == "[::1]:9099")
    _ = try await backend.sendOobCode(.passwordReset(email: "a@b.co"))
    #expect(
      transport.requests.first?.url.absoluteString
        == "http://[::1]:9099/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=K")
    let production = try FirebaseBackend(apiKey: "K", projectID: "p", environment: [:])
    #expect(production.emulatorHost == nil)
    #expect(throws: AuthError.self) {
      try FirebaseBackend(apiKey: "K", projectID: "p", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "http://x"])
    }
  }

  @Test func emptyKeysAndProjectsAreRefusedWithWhatToDo() throws {
    let error = try #require(throws: AuthError.self) {
      try FirebaseBackend(apiKey: " ", projectID: "p", environment: [:])
    }
    #expect(error.code == .misconfigured)
    #expect(error.message.contains("API_KEY"))
  }

  static let plist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>API_KEY</key><string>AIzaPlistKey</string>
      <key>PROJECT_ID</key><string>plist-project</string>
      <key>GOOGLE_APP_ID</key><string>1:1234:ios:abcd</string>
      <key>BUNDLE_ID</key><string>com.example.app</string>
      <key>CLIENT_ID</key><string>1234-abc.apps.googleusercontent.com</string>
      <key>IS_SIGNIN_ENABLED</key><true/>
    </dict>
    </plist>
    """

  @Test func readsGoogleServiceInfoPlist() async throws {
    let configuration = try FirebaseConfiguration(data: Data(Self.plist.utf8))
    #expect(
      configuration
        == FirebaseConfiguration(
          apiKey: "AIzaPlistKey", projectID: "plist-project", appID: "1:1234:ios:abcd", bundleID: "com.example.app",
          clientID: "1234-abc.apps.googleusercontent.com"))
    let transport = RecordingTransport([.status(200, "{}")])
    let backend = try FirebaseBackend(configuration: configuration, transport: transport, environment: [:])
    try await backend.delete(DeleteAccountRequest(idToken: "T"))
    let request = try #require(transport.requests.first)
    #expect(request.header("X-Firebase-GMPID") == "1:1234:ios:abcd")
    #expect(request.header("x-ios-bundle-identifier") == "com.example.app")
    #expect(request.header("X-Firebase-Locale") == nil)
  }

  @Test func readsASmallJSONFile() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("firebase-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(#"{"apiKey":"AIzaJSON","projectId":"json-project","appId":"1:9:web:f"}"#.utf8).write(to: file)
    let configuration = try FirebaseConfiguration(contentsOf: file)
    #expect(configuration.apiKey == "AIzaJSON")
    #expect(configuration.projectID == "json-project")
    #expect(configuration.appID == "1:9:web:f")
    #expect(configuration.bundleID == nil)
  }

  @Test func aBrokenOrIncompleteFileSaysWhatIsMissing() throws {
    let missing = try #require(throws: AuthError.self) {
      try FirebaseConfiguration(data: Data(#"{"apiKey":"K"}"#.utf8), source: "firebase.json")
    }
    #expect(missing.message.contains("firebase.json has no PROJECT_ID"))
    let garbage = try #require(throws: AuthError.self) { try FirebaseConfiguration(data: Data("not a plist".utf8)) }
    #expect(garbage.code == .misconfigured)
    let absent = try #require(throws: AuthError.self) {
      try FirebaseConfiguration(contentsOf: URL(fileURLWithPath: "/nonexistent/GoogleService-Info.plist"))
    }
    #expect(absent.message.contains("/nonexistent/GoogleService-Info.plist"))
  }
}
