import Foundation
import SignInKit
import SignInKitTesting
import SignInTestSupport
import Testing

/// `signin serve` as a separate process, used by other `signin` processes and by
/// `FirebaseBackend`, then stopped with SIGTERM.
@Suite(.timeLimit(.minutes(3)))
struct SigninServeTests {
  /// A running `signin serve`, its first output line read.
  final class Server: Sendable {
    let process: Process
    let host: String
    let output: Pipe
    /// What it printed first: at least its first line.
    let opening: String

    /// Starts `signin serve` with `arguments`; with `descriptorLimit`, under that `ulimit -n`.
    init(_ arguments: [String], descriptorLimit: Int? = nil) async throws {
      let process = Process()
      if let descriptorLimit {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
          ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", SigninBinary.url.path, "serve", "--port", "0"]
          + arguments
      } else {
        process.executableURL = SigninBinary.url
        process.arguments = ["serve", "--port", "0"] + arguments
      }
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      process.standardInput = FileHandle.nullDevice
      try await ProcessLaunchGate.shared.launching { try process.run() }
      self.process = process
      self.output = output
      // The first line names the host; read it off the pool, until it arrives or the process ends.
      let handle = output.fileHandleForReading
      let first = try await runBlocking { () -> String in
        var text = ""
        while !text.contains("\n") {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          text += String(decoding: chunk, as: UTF8.self)
        }
        return text
      }
      guard let line = first.split(separator: "\n").first, line.hasPrefix("FIREBASE_AUTH_EMULATOR_HOST=") else {
        process.terminate()
        throw AuthError(.internal, "signin serve said: \(first)")
      }
      host = String(line.dropFirst("FIREBASE_AUTH_EMULATOR_HOST=".count))
      opening = first
    }

    /// A test that failed before ``stop()`` leaves no server behind.
    deinit {
      if process.isRunning { process.terminate() }
    }

    /// SIGTERM, then the exit status and the rest of the output.
    func stop() async throws -> (Int32, String) {
      process.terminate()
      let handle = output.fileHandleForReading
      let process = process
      return try await runBlocking {
        let rest = handle.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: rest, as: UTF8.self))
      }
    }
  }

  /// The drift one description of the API ended: an administrator's create or update that
  /// spelled a field as another client does (`photoURL`, `display_name`) used to be accepted and
  /// dropped; every path now reads every spelling Firebase accepts.
  @Test func anAdministratorsCreateAndUpdateReadPhotoURLAndDisplayNameInEverySpelling() async throws {
    let server = try await Server(["--in-memory", "--hash-cost", "test"])
    let transport = URLSessionTransport()
    func admin(_ call: String, _ json: String) async throws -> [String: Any] {
      let url = URL(string: "http://\(server.host)/identitytoolkit.googleapis.com/v1/projects/signinkit-local\(call)")!
      let response = try await transport.send(
        HTTPRequest(
          url: url, headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")],
          body: Data(json.utf8)))
      #expect(response.status == 200, "\(call): \(String(decoding: response.body, as: UTF8.self))")
      return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }
    func stored() async throws -> [String: Any] {
      let found = try await admin("/accounts:lookup", #"{"localId":["u1"]}"#)
      return (found["users"] as? [[String: Any]])?.first ?? [:]
    }
    _ = try await admin(
      "/accounts",
      #"{"localId":"u1","email":"ada@example.com","photoURL":"https://example.com/a.png","display_name":"Ada"}"#)
    var user = try await stored()
    #expect(user["photoUrl"] as? String == "https://example.com/a.png")
    #expect(user["displayName"] as? String == "Ada")
    _ = try await admin(
      "/accounts:update", #"{"local_id":"u1","photo_url":"https://example.com/b.png","displayNAME":"Grace"}"#)
    user = try await stored()
    #expect(user["photoUrl"] as? String == "https://example.com/b.png")
    #expect(user["displayName"] as? String == "Grace")
    #expect(try await server.stop().0 == 0)
  }

  @Test func theHashCostIsSaidAtStartAndAStoredHashOutlivesAChangeOfCost() async throws {
    let data = SigninProcessTests.Scratch()
    let kept = try await Server(["--data-dir", data.url.path])
    _ = try await FirebaseBackend.emulator(host: kept.host, projectID: "signinkit-local")
      .signUp(SignUpRequest(email: "ada@example.com", password: "hunter2-pass"))
    let keptSays = try await kept.opening + kept.stop().1
    #expect(keptSays.contains("Password hashes: Firebase's cost (scrypt N=16384, r=8, p=1)"), "\(keptSays)")

    let cheap = try await Server(["--data-dir", data.url.path, "--hash-cost", "test"])
    _ = try await FirebaseBackend.emulator(host: cheap.host, projectID: "signinkit-local")
      .signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "hunter2-pass"))
    let cheapSays = try await cheap.opening + cheap.stop().1
    #expect(cheapSays.contains("Password hashes: test cost (scrypt N=16, r=8, p=1)"), "\(cheapSays)")

    let memory = try await Server(["--in-memory"])
    let memorySays = try await memory.opening + memory.stop().1
    #expect(memorySays.contains("Password hashes: test cost"), "\(memorySays)")
  }

  /// `oauth` in a REPL against `signin serve`: the handler page's form submitted for the given
  /// account, its answer back at the REPL's loopback listener, and the page's refusal said at
  /// once; the offline backend says where a handler page is.
  @Test func theREPLSignsInThroughTheServersHandlerPage() async throws {
    let server = try await Server(["--in-memory", "--project", "demo"])
    let environment = ["FIREBASE_AUTH_EMULATOR_HOST": server.host]
    let signedIn = try await SigninProcessTests.signin(
      [
        "--backend", "emulator", "--project", "demo", "--in-memory", "-c",
        "oauth microsoft.com --account grace@contoso.example; whoami",
      ], environment: environment)
    #expect(signedIn.status == 0, "\(signedIn.output)")
    #expect(signedIn.output.contains("signed in as grace@contoso.example ("), "\(signedIn.output)")
    #expect(signedIn.output.contains(") (new account)"), "\(signedIn.output)")
    #expect(signedIn.output.contains("providers: microsoft.com"), "whoami lists the provider: \(signedIn.output)")

    let refused = try await SigninProcessTests.signin(
      [
        "--backend", "emulator", "--project", "demo", "--in-memory", "-c", "oauth saml.acme --account lin@acme.example",
      ],
      environment: environment)
    #expect(refused.output.contains("has no saml.acme provider. Create it first"), "\(refused.output)")

    let offline = try await SigninProcessTests.signin(["--in-memory", "-c", "oauth github.com"])
    #expect(offline.output.contains("run 'signin serve' in another terminal"), "\(offline.output)")
    #expect(try await server.stop().0 == 0)
  }

  @Test func servesTheEmbeddedBackendToOtherProcessesAndStopsCleanly() async throws {
    let data = SigninProcessTests.Scratch()
    let server = try await Server(["--data-dir", data.url.path, "--project", "demo"])
    let environment = ["FIREBASE_AUTH_EMULATOR_HOST": server.host]

    let first = try await SigninProcessTests.signin(
      ["--backend", "emulator", "--project", "demo", "--in-memory", "--json", "-c", "signup ada@example.com; whoami"],
      stdin: "hunter2-pass\n", environment: environment)
    #expect(first.status == 0, "\(first.output)")
    #expect(first.output.contains("signed up as ada@example.com"))

    // Two more processes at once, and a Firebase client in this one, see the same account.
    let script = [
      "--backend", "emulator", "--project", "demo", "--in-memory", "--json", "-c", "signin ada@example.com; whoami",
    ]
    async let second = SigninProcessTests.signin(script, stdin: "hunter2-pass\n", environment: environment)
    async let third = SigninProcessTests.signin(script, stdin: "hunter2-pass\n", environment: environment)
    let (two, three) = try await (second, third)
    #expect(two.status == 0 && three.status == 0, "\(two.output)\n\(three.output)")
    let uid = Self.uid(in: first.output)
    #expect(uid != nil && Self.uid(in: two.output) == uid && Self.uid(in: three.output) == uid)
    let firebase = try FirebaseBackend.emulator(host: server.host, projectID: "demo")
    let signedIn = try await firebase.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "hunter2-pass"))
    #expect(!signedIn.localID.isEmpty)

    let (status, rest) = try await server.stop()
    #expect(status == 0, "\(rest)")
    #expect(rest.contains("Stopped"))

    // The accounts are in the data folder: a new server still has them.
    let again = try await Server(["--data-dir", data.url.path, "--project", "demo"])
    let reopened = try FirebaseBackend.emulator(host: again.host, projectID: "demo")
    _ = try await reopened.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "hunter2-pass"))
    _ = try await again.stop()
  }

  @Test func theREPLSignsInWithACustomTokenAndShowsItsClaims() async throws {
    let server = try await Server(["--in-memory", "--project", "demo"])
    func part(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    // Unsigned, as firebase-admin mints them in emulator mode; signin serve accepts those.
    let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    let token =
      part(#"{"alg":"none","typ":"JWT"}"#) + "."
      + part(#"{"uid":"repl-user","aud":"\#(audience)","claims":{"plan":"pro"}}"#) + "."
    let run = try await SigninProcessTests.signin(
      [
        "--backend", "emulator", "--project", "demo", "--in-memory", "-c",
        "custom-token \(token); whoami; token --claims",
      ],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": server.host])
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("signing in with a custom token…"), "progress is the spinner's, not a line")
    #expect(run.output.contains("signed in as a user (repl-user) (new account)"))
    #expect(run.output.contains("signed in with a custom token; issued "))
    #expect(run.output.contains(#""plan":"pro""#))
    #expect(!run.output.contains(token), "the command line's token is a secret")
    _ = try await server.stop()
  }

  /// The uid the last `--json` line with one names (`whoami`'s result).
  static func uid(in output: String) -> String? {
    guard let range = output.range(of: #""uid":""#, options: .backwards) else { return nil }
    return String(output[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
  }

  @Test func aMistakeOnTheCommandLineSaysWhatToChange() async throws {
    let remote = try await SigninProcessTests.signin(["serve", "--host", "0.0.0.0"])
    #expect(remote.status == 2)
    #expect(remote.output.contains("127.0.0.1 only"))
    let script = try await SigninProcessTests.signin(["serve", "-c", "whoami"])
    #expect(script.status == 2)
    #expect(script.output.contains("usage: signin serve"), "a bad serve option shows serve's usage")
    #expect(!script.output.contains("--backend NAME"))
  }

  @Test func theLogShowsEachLinkAndCodeAsTheEmulatorDoes() async throws {
    let server = try await Server(["--in-memory", "--project", "demo"])
    let client = try FirebaseBackend.emulator(host: server.host, projectID: "demo")
    let auth = Auth(backend: client, store: InMemorySessionStore())
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.sendEmailVerification()
    _ = try await client.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    let (_, log) = try await server.stop()
    let link = try #require(
      log.split(separator: "\n").first {
        $0.hasPrefix("To verify the email address ada@example.com, follow this link: ")
      })
    #expect(link.contains("/emulator/action?") && link.contains("oobCode="), "\(link)")
    let text = try #require(
      log.split(separator: "\n").first { $0.hasPrefix("To verify the phone number +15555550100") })
    #expect(text.range(of: #"use the code \d{6}\.$"#, options: .regularExpression) != nil, "\(text)")
  }

  @Test func theBannerAndTheRootNameTheAccountsPage() async throws {
    let server = try await Server(["--in-memory"])
    let root = try await URLSessionTransport().send(
      HTTPRequest(method: "GET", url: URL(string: "http://\(server.host)/")!))
    let page = "http://\(server.host)/emulator/auth/accounts"
    #expect(String(decoding: root.body, as: UTF8.self).contains(#""accountsPage":"\#(page)""#))
    let (_, rest) = try await server.stop()
    #expect((server.opening + rest).contains("Accounts, emails and texted codes: \(page)"))
  }
}
