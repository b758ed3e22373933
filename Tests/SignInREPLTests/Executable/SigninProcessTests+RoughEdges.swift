import Foundation
import Testing

/// What a new user of the `signin` binary met and should not have: a home folder that was not
/// theirs, a help cut short, a stop message that promised what was not kept, a database others
/// could read.
extension SigninProcessTests {
  /// Every file under `folder`, relative to it.
  static func files(under folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    return (enumerator?.allObjects as? [URL] ?? [])
      .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
      .map { String($0.path.dropFirst(folder.path.count)) }.sorted()
  }

  @Test func theHomeFolderIsTheOneHOMENames() async throws {
    let home = Scratch()
    try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
    // No XDG folders: everything goes under HOME, as the XDG spec says.
    let run = try await Self.signin(
      ["-c", "signup ada@example.com; whoami"], stdin: "hunter2-pass\n",
      environment: ["HOME": home.url.path, "XDG_DATA_HOME": "", "XDG_STATE_HOME": ""])
    #expect(run.status == 0, "\(run.output)")
    let written = Self.files(under: home.url)
    #expect(written.contains("/.local/share/signinkit/signinkit-local/backend/accounts.sqlite"), "\(written)")
    #expect(written.allSatisfy { $0.hasPrefix("/.local/") }, "\(written)")
  }

  @Test func aScriptChoosesTheOfflineGoogleAndAppleAccounts() async throws {
    let run = try await Self.signin(
      [
        "--in-memory", "-c",
        "google --account ada@example.com; whoami; signout; apple --account tim@example.com; whoami",
      ],
      stdin: "")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains("providers: google.com") && run.output.contains("providers: apple.com"), "\(run.output)")
    #expect(run.output.contains("signed in as ada@example.com") && run.output.contains("signed in as tim@example.com"))
    #expect(!run.output.contains("Account:"), "nothing was asked")
    let refused = try await Self.signin(["--in-memory", "-c", "apple --account tim"], stdin: "")
    #expect(refused.status != 0)
    #expect(refused.output.contains("apple [--account EMAIL | --id-token TOKEN --nonce RAW]"), "\(refused.output)")
  }

  @Test func theAccountsDatabaseIsTheOwnersOnly() async throws {
    let scratch = Scratch()
    let run = try await Self.signin(
      ["--data-dir", scratch.url.path, "-c", "signup ada@example.com"], stdin: "hunter2-pass\n")
    #expect(run.status == 0, "\(run.output)")
    let database = scratch.url.appendingPathComponent("backend/accounts.sqlite")
    let mode = try FileManager.default.attributesOfItem(atPath: database.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func serveHelpIsServesOwnAndWhole() async throws {
    let run = try await Self.signin(["serve", "--help"])
    #expect(run.status == 0)
    for option in ["--port PORT", "--data-dir DIR", "--service-account FILE", "--app-check-secret KEY"] {
      #expect(run.output.contains(option), "\(option) in\n\(run.output)")
    }
    #expect(!run.output.contains("--backend NAME"), "the REPL's options are not serve's")
    #expect(run.output.hasSuffix("signin --backend emulator --app-check-secret KEY sends them)\n"))
    let general = try await Self.signin(["--help"])
    #expect(general.output.contains("signin serve --help"))
  }

  @Test func anInMemoryServerDoesNotSayItSavedAnything() async throws {
    let server = try await SigninServeTests.Server(["--in-memory", "--project", "demo"])
    let (status, rest) = try await server.stop()
    #expect(status == 0)
    #expect(rest.contains("its in-memory accounts are gone"), "\(rest)")
    #expect(!rest.contains("saved"))
  }
}

extension SigninProcessTests {
  @Test func reauthSignsInAgainForAChangeThatNeedsIt() async throws {
    let run = try await Self.signin(
      ["--in-memory", "-c", "signup ada@example.com; reauth; whoami"], stdin: "hunter2-pass\nhunter2-pass\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("signed in again as ada@example.com"))
    #expect(!run.output.contains("hunter2-pass"))
  }

  @Test func aGoogleIDTokenHeldElsewhereSignsIn() async throws {
    let server = try await SigninServeTests.Server(["--in-memory", "--project", "demo"])
    let token = #"{"sub":"g-1","email":"grace@example.com","email_verified":true}"#
    let run = try await Self.signin(
      ["--backend", "emulator", "--project", "demo", "--in-memory", "-c", "google --id-token '\(token)'; whoami"],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": server.host])
    _ = try await server.stop()
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("signed in as grace@example.com"))
    #expect(run.output.contains("providers: google.com"))
  }
}

extension SigninProcessTests {
  /// The recipe a link conflict suggests signs in with the credential the conflict handed back:
  /// the account chooser is asked twice (sign-in, link), not a third time for the upgrade.
  @Test func theUpgradeAfterALinkConflictDoesNotAskTheProviderAgain() async throws {
    let run = try await Self.signin(
      ["--in-memory", "-c", "apple; signout; anonymous; link apple; upgrade apple; whoami"],
      stdin: "tim@example.com\ntim@example.com\n")
    #expect(run.output.contains("next: `upgrade apple` signs in to it"))
    #expect(run.output.contains("signed in to the existing account tim@example.com"), "\(run.output)")
    #expect(run.output.contains("guest account deleted"))
    #expect(!run.output.contains("No account was chosen"))
  }
}
