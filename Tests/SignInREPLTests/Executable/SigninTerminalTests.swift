import Foundation
import Testing

/// Runs the built `signin` on a pseudo-terminal: the line editor, history, completion, password
/// prompts, colour, the account chooser and Ctrl-C, as a person at a terminal meets them.
@Suite(.timeLimit(.minutes(2)))
struct SigninTerminalTests {
  final class Scratch: Sendable {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("signin-pty-\(UUID().uuidString)", isDirectory: true)
    var state: String { url.appendingPathComponent("state").path }
    var data: String { url.appendingPathComponent("data").path }
    var history: URL { url.appendingPathComponent("state/signinkit/history") }
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  static func start(_ scratch: Scratch, _ arguments: [String] = ["--in-memory"], environment: [String: String] = [:])
    throws -> PseudoTerminal
  {
    let terminal = try PseudoTerminal(
      arguments: arguments, environment: ["XDG_STATE_HOME": scratch.state].merging(environment) { $1 })
    try terminal.waitFor("signin> ")
    return terminal
  }

  @Test func editsTheLineCompletesCommandsAndLeavesOnControlD() throws {
    let scratch = Scratch()
    let terminal = try Self.start(scratch)
    try terminal.waitFor("no previous sign-in")
    terminal.type("anon\t")
    try terminal.waitFor("signin> anonymous ")
    terminal.type("\r")
    try terminal.waitFor("signed in as an anonymous user")
    // "hoami", Home, "w", End: whoami.
    terminal.type("hoami\u{01}w\u{05}\r")
    try terminal.waitFor("providers: none")
    // A word deleted with Ctrl-W, then the line finished.
    terminal.type("token --nope\u{17}--claims\r")
    try terminal.waitFor("\"provider_id\":\"anonymous\"")
    terminal.type("\u{04}")
    #expect(try terminal.exitStatus() == 0)
  }

  @Test func historyIsWalkedWithArrowsAndKeptWithoutPasswords() throws {
    let scratch = Scratch()
    let first = try Self.start(scratch, ["--data-dir", scratch.data])
    first.type("signup ada@example.com\r")
    try first.waitFor("New password: ")
    first.type("correct-horse-1\r")
    try first.waitFor("Repeat it: ")
    first.type("correct-horse-1\r")
    try first.waitFor("signed up as ada@example.com")
    #expect(!first.transcript.contains("correct-horse-1"))
    first.type("correct-horse-1\r")  // a password typed at the prompt by mistake
    try first.waitFor("Unknown command")
    first.type("quit\r")
    #expect(try first.exitStatus() == 2)

    let history = try String(contentsOf: scratch.history, encoding: .utf8)
    #expect(history == "signup ada@example.com\nquit\n")

    let second = try Self.start(scratch, ["--data-dir", scratch.data])
    try second.waitFor("restored ada@example.com")
    second.type("\u{1B}[A\u{1B}[A")
    try second.waitFor("signin> signup ada@example.com")
    second.type("\u{15}whoami\r")
    try second.waitFor("ada@example.com")
    second.type("quit\r")
    #expect(try second.exitStatus() == 0)
  }

  @Test func controlCCancelsASlowSignInAndTheStateReturns() throws {
    let scratch = Scratch()
    let terminal = try Self.start(scratch, ["--in-memory", "--latency", "60000"])
    terminal.type("anonymous\r")
    try terminal.waitFor("signing in with no account")
    terminal.type("\u{03}")
    try terminal.waitFor("error (cancelled)")
    terminal.type("state\r")
    try terminal.waitFor("signed out")
    // Ctrl-C abandons a half-typed line; twice at an empty prompt leaves.
    terminal.type("whoa\u{03}")
    try terminal.waitFor("signin> whoa^C")
    terminal.type("\u{03}")
    try terminal.waitFor("press Ctrl-C again to leave")
    terminal.type("\u{03}")
    #expect(try terminal.exitStatus() == 1)
  }

  @Test func theAccountChooserListsEmailsUsedBefore() throws {
    let scratch = Scratch()
    let terminal = try Self.start(scratch)
    terminal.type("google\r")
    try terminal.waitFor("(none yet: type an email)")
    terminal.type("grace@example.com\r")
    try terminal.waitFor("signed in as grace@example.com")
    terminal.type("signout\rgoogle\r")
    try terminal.waitFor("1) grace@example.com")
    terminal.type("1\r")
    try terminal.waitFor("signed in as grace@example.com")
    terminal.type("quit\r")
    #expect(try terminal.exitStatus() == 0)
  }

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
    let scratch = Scratch()
    let coloured = try Self.start(scratch)
    coloured.type("whoami\r")
    try coloured.waitFor("No user is signed in")
    coloured.type("quit\r")
    _ = try coloured.exitStatus()
    #expect(coloured.rawTranscript.contains("\u{1B}[31merror (no-current-user)"))

    let plain = try Self.start(scratch, environment: ["NO_COLOR": "1"])
    plain.type("whoami\r")
    try plain.waitFor("No user is signed in")
    plain.type("quit\r")
    _ = try plain.exitStatus()
    #expect(!plain.rawTranscript.contains("\u{1B}[31m"))
    #expect(!plain.rawTranscript.contains("\u{1B}[36m"))
  }

  @Test func passwordsAreAskedTwiceWithoutEchoAndMustMatch() throws {
    let scratch = Scratch()
    let terminal = try Self.start(scratch)
    terminal.type("signup ada@example.com\r")
    try terminal.waitFor("New password: ")
    terminal.type("first-secret\r")
    try terminal.waitFor("Repeat it: ")
    terminal.type("second-secret\r")
    try terminal.waitFor("The two passwords differ; nothing changed")
    terminal.type("quit\r")
    #expect(try terminal.exitStatus() == 1)
    #expect(!terminal.transcript.contains("secret"))
  }
}
