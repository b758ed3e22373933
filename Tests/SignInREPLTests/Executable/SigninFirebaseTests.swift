import Foundation
import SignInKitTesting
import Testing

/// `signin --backend emulator|firebase`: the REPL on the Firebase wire format, against canned
/// emulator replies over real HTTP on 127.0.0.1.
@Suite(.timeLimit(.minutes(3)))
struct SigninFirebaseTests {
  static func emulator(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply? {
    let path = request.target.split(separator: "?").first.map(String.init) ?? ""
    let account = #""localId":"uid1","email":"ada@example.com""#
    switch path {
    case "/identitytoolkit.googleapis.com/v1/accounts:signUp":
      return .init(status: 200, body: #"{\#(account),"idToken":"E.1","refreshToken":"R1","expiresIn":"3600"}"#)
    case "/identitytoolkit.googleapis.com/v1/accounts:lookup":
      return .init(
        status: 200,
        body: #"{"users":[{\#(account),"providerUserInfo":[{"providerId":"password","rawId":"ada@example.com"}]}]}"#)
    case "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode":
      return .init(status: 200, body: #"{"email":"ada@example.com"}"#)
    case "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword":
      return .init(status: 400, body: #"{"error":{"code":400,"message":"INVALID_PASSWORD","errors":[]}}"#)
    case "/emulator/v1/projects/demo-repl/oobCodes":
      return .init(
        status: 200,
        body:
          #"{"oobCodes":[{"email":"ada@example.com","oobCode":"CODE-77","oobLink":"http://x/emulator/action?oobCode=CODE-77","requestType":"VERIFY_EMAIL"}]}"#
      )
    default:
      return .init(status: 404, body: "<html>no</html>", contentType: "text/html")
    }
  }

  @Test func theREPLRunsOnTheEmulator() async throws {
    let server = try LoopbackHTTPServer(handler: Self.emulator)
    defer { server.stop() }
    let run = try await SigninProcessTests.signin(
      [
        "--backend", "emulator", "--project", "demo-repl", "--in-memory", "-c",
        "signup ada@example.com; verify-email; mailbox; whoami; signout; signin ada@example.com",
      ],
      stdin: "pw-123456\nwrong-one\n", environment: ["FIREBASE_AUTH_EMULATOR_HOST": server.host])
    #expect(run.status == 1, "\(run.output)")
    #expect(run.output.contains("signed up as ada@example.com (uid1)"))
    #expect(run.output.contains("VERIFY_EMAIL to ada@example.com: CODE-77"))
    #expect(run.output.contains("providers: password"))
    #expect(run.output.contains("error (wrong-password)"))
    #expect(!run.output.contains("pw-123456"))
    #expect(
      server.requests.contains { $0.target == "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key" })
  }

  @Test func eachBackendKeepsItsOwnSessionInOneDataFolder() async throws {
    let server = try LoopbackHTTPServer(handler: Self.emulator)
    defer { server.stop() }
    let data = SigninProcessTests.Scratch()
    let emulator = ["FIREBASE_AUTH_EMULATOR_HOST": server.host]
    let signedUp = try await SigninProcessTests.signin(
      ["--backend", "emulator", "--project", "demo-repl", "--data-dir", data.url.path, "-c", "signup ada@example.com"],
      stdin: "pw-123456\npw-123456\n", environment: emulator)
    #expect(signedUp.status == 0, "\(signedUp.output)")
    // The embedded backend on the same folder does not restore the emulator's user.
    let embedded = try await SigninProcessTests.signin(
      ["--project", "demo-repl", "--data-dir", data.url.path, "-c", "state"])
    #expect(embedded.output.contains("no previous sign-in"), "\(embedded.output)")
    #expect(embedded.output.contains("backend: the embedded backend, project demo-repl"))
    let again = try await SigninProcessTests.signin(
      ["--backend", "emulator", "--project", "demo-repl", "--data-dir", data.url.path, "-c", "state"],
      environment: emulator)
    #expect(again.output.contains("restored ada@example.com"), "\(again.output)")
    #expect(again.output.contains("backend: the Firebase Auth emulator at \(server.host), project demo-repl"))
  }

  @Test func firebaseNeedsAProjectAndSaysHowToGiveIt() async throws {
    let run = try await SigninProcessTests.signin(["--backend", "firebase", "--in-memory", "-c", "state"])
    #expect(run.status == 2)
    #expect(run.output.contains("--backend firebase needs --config FILE, or --api-key KEY and --project ID"))
    let badConfig = try await SigninProcessTests.signin([
      "--backend", "firebase", "--config", "/nonexistent.plist", "-c", "state",
    ])
    #expect(badConfig.status == 2)
    #expect(badConfig.output.contains("Cannot read /nonexistent.plist"))
    let badBackend = try await SigninProcessTests.signin(["--backend", "cloud"])
    #expect(badBackend.status == 2)
  }

  @Test func productionFirebaseExplainsThatGoogleNeedsTheRealProvider() async throws {
    let run = try await SigninProcessTests.signin(
      ["--backend", "firebase", "--api-key", "AIzaX", "--project", "p", "--in-memory", "-c", "google; mailbox"],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""])
    #expect(run.status == 1)
    #expect(run.output.contains("Google sign-in against production Firebase needs the real Google provider"))
    #expect(run.output.contains("Only the Auth emulator shows sent codes"))
  }
}
