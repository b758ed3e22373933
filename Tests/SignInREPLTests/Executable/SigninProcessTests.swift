import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

/// Runs the built `signin` as a separate process through pipes and checks its transcript.
@Suite(.timeLimit(.minutes(2)))
struct SigninProcessTests {
  struct Run {
    let output: String
    let status: Int32
  }

  /// Runs the built `signin` with `arguments`, feeding it `stdin`, until it exits.
  static func signin(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async throws -> Run
  {
    try await runBlocking { try blockingSignin(arguments, stdin: stdin, environment: environment) }
  }

  private static func blockingSignin(_ arguments: [String], stdin: String, environment: [String: String]) throws -> Run
  {
    let process = Process()
    process.executableURL = SigninBinary.url
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try ProcessLaunchGate.shared.launch(process)
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(output: String(decoding: data, as: UTF8.self), status: process.terminationStatus)
  }

  final class Scratch: Sendable {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("signin-repl-\(UUID().uuidString)", isDirectory: true)
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  @Test func signUpInOneProcessIsRestoredInTheNext() async throws {
    let data = Scratch()
    let first = try await Self.signin(
      ["--data-dir", data.url.path, "-c", "signup ada@example.com; whoami"], stdin: "hunter2-pass\n")
    #expect(first.status == 0, "\(first.output)")
    #expect(first.output.contains("signed up as ada@example.com"))
    #expect(!first.output.contains("hunter2-pass"))
    let second = try await Self.signin(["--data-dir", data.url.path, "-c", "whoami"])
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("restored ada@example.com"))
    #expect(second.output.contains("providers: password"))
  }

  /// What can wait for a command waits: a `signin` that only starts and leaves opens no
  /// database and leaves no session folder (the watch that makes it is background work).
  /// The first command that needs the accounts opens them, in the same folder as before.
  @Test func startingAndLeavingOpensNoDatabaseAndTheFirstCommandThatNeedsItDoes() async throws {
    let data = Scratch()
    let quit = try await Self.signin(["--data-dir", data.url.path, "-c", "quit"])
    #expect(quit.status == 0, "\(quit.output)")
    #expect(quit.output.contains("no previous sign-in"))
    let database = data.url.appendingPathComponent("backend/accounts.sqlite")
    #expect(!FileManager.default.fileExists(atPath: database.path))
    #expect(!FileManager.default.fileExists(atPath: data.url.appendingPathComponent("session").path))
    let signUp = try await Self.signin(
      ["--data-dir", data.url.path, "-c", "signup ada@example.com"], stdin: "hunter2-pass\n")
    #expect(signUp.status == 0, "\(signUp.output)")
    #expect(FileManager.default.fileExists(atPath: database.path))
    let whoami = try await Self.signin(["--data-dir", data.url.path, "-c", "whoami"])
    #expect(whoami.output.contains("restored ada@example.com"), "\(whoami.output)")
  }

  #if os(Linux)
    /// glibc's loader names each library it opens under `LD_DEBUG=files`: SQLite and libcrypt
    /// are opened when first needed, so starting and leaving loads neither.
    @Test func startingAndLeavingLoadsNeitherSQLiteNorLibcryptAndTheFirstAccountsCommandLoadsSQLite() async throws {
      let data = Scratch()
      let loader = ["LD_DEBUG": "files"]
      let quit = try await Self.signin(["--data-dir", data.url.path, "-c", "quit"], environment: loader)
      #expect(quit.status == 0, "\(quit.output)")
      #expect(quit.output.contains("file=libc.so.6"), "the loader reports what it opens: \(quit.output.prefix(300))")
      #expect(!quit.output.contains("file=libsqlite3"))
      #expect(!quit.output.contains("file=libcrypt.so"))
      let signUp = try await Self.signin(
        ["--data-dir", data.url.path, "-c", "signup ada@example.com"], stdin: "hunter2-pass\n", environment: loader)
      #expect(signUp.status == 0, "\(signUp.output)")
      #expect(signUp.output.contains("file=libsqlite3.so.0"))
    }
  #endif

  @Test func aDataFolderOthersCanWriteIsRefusedWithTheFix() async throws {
    let data = Scratch()
    try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: data.url.path)
    for arguments in [
      ["--data-dir", data.url.path, "-c", "whoami"], ["serve", "--port", "0", "--data-dir", data.url.path],
    ] {
      let run = try await Self.signin(arguments)
      #expect(run.status == 1, "\(run.output)")
      #expect(run.output.contains("chmod go-w \(data.url.path)"))
    }
    #expect(
      !FileManager.default.fileExists(atPath: data.url.appendingPathComponent("backend").path), "nothing was made in it"
    )
  }

  @Test func scriptsFromStandardInputRunEveryLine() async throws {
    let run = try await Self.signin(
      ["--in-memory"],
      stdin: "anonymous\nlink email ada@example.com\nsecret-1\nwhoami\nsignout\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("linked email: ada@example.com"))
    #expect(run.output.contains("\nsigned out\n"))
  }

  @Test func exitStatusSaysWhetherCommandsFailedOrWereMisused() async throws {
    let failing = try await Self.signin(["--in-memory", "-c", "whoami"])
    #expect(failing.status == 1)
    #expect(failing.output.contains("No user is signed in"))
    let misused = try await Self.signin(["--in-memory", "-c", "sigin ada@example.com"])
    #expect(misused.status == 2)
    #expect(misused.output.contains("Did you mean 'signin'?"))
    let badOption = try await Self.signin(["--nope"])
    #expect(badOption.status == 2)
    #expect(badOption.output.contains("usage: signin"))
  }

  @Test func jsonOutputIsOneObjectPerLine() async throws {
    let run = try await Self.signin(["--in-memory", "--json", "-c", "anonymous; whoami"])
    #expect(run.status == 0, "\(run.output)")
    let objects = try run.output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(objects.contains { $0["type"] as? String == "state" && $0["state"] as? String == "signedIn" })
    #expect(objects.contains { $0["type"] as? String == "result" && $0["uid"] != nil })
  }

  @Test func googleSignInWorksOfflineThroughTheEmbeddedIdP() async throws {
    let run = try await Self.signin(["--in-memory", "-c", "google; whoami"], stdin: "grace@example.com\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("signed in as grace@example.com"))
    #expect(run.output.contains("providers: google.com"))
  }

  @Test func helpAndVersionAnswerAndExitCleanly() async throws {
    let help = try await Self.signin(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("--data-dir"))
    let inside = try await Self.signin(["--in-memory", "-c", "help token"])
    #expect(inside.output.contains("token [--force] [--claims] [--reveal]"))
    #expect(try await Self.signin(["--version"]).output.hasPrefix("signin "))
  }
}
