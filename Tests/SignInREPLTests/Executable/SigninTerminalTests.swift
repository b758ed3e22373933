import Foundation
import SignInCrypto
import Testing

/// Runs the built `signin` on a pseudo-terminal: the line editor, history, completion, password
/// prompts, colour, the account chooser and Ctrl-C, as a person at a terminal meets them.
/// Serialized: each process makes RSA keys at start, and a crowd of them on two cores can take
/// longer than a wait's deadline.
@Suite(.serialized, .timeLimit(.minutes(5)))
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
    async throws -> PseudoTerminal
  {
    let terminal = try await PseudoTerminal(
      arguments: arguments, environment: ["XDG_STATE_HOME": scratch.state].merging(environment) { $1 })
    try await terminal.waitFor("signin> ")
    return terminal
  }

  @Test func editsTheLineCompletesCommandsAndLeavesOnControlD() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch)
    try await terminal.waitFor("no previous sign-in")
    terminal.type("anon\t")
    try await terminal.waitFor("signin> anonymous ")
    terminal.type("\r")
    try await terminal.waitFor("signed in as an anonymous user")
    // "hoami", Home, "w", End: whoami.
    terminal.type("hoami\u{01}w\u{05}\r")
    try await terminal.waitFor("providers: none")
    // A word deleted with Ctrl-W, then the line finished.
    terminal.type("token --nope\u{17}--claims\r")
    try await terminal.waitFor("\"provider_id\":\"anonymous\"")
    terminal.type("\u{04}")
    #expect(try await terminal.exitStatus() == 0)
  }

  @Test func historyIsWalkedWithArrowsAndKeptWithoutPasswords() async throws {
    let scratch = Scratch()
    let first = try await Self.start(scratch, ["--data-dir", scratch.data])
    first.type("signup ada@example.com\r")
    try await first.waitFor("New password: ")
    first.type("correct-horse-1\r")
    try await first.waitFor("Repeat it: ")
    first.type("correct-horse-1\r")
    try await first.waitFor("signed up as ada@example.com")
    #expect(!first.transcript.contains("correct-horse-1"))
    first.type("correct-horse-1\r")  // a password typed at the prompt by mistake
    try await first.waitFor("Unknown command")
    first.type("quit\r")
    // Leaving the prompt is a success: the unknown command was answered as it was typed.
    #expect(try await first.exitStatus() == 0)

    let history = try String(contentsOf: scratch.history, encoding: .utf8)
    #expect(history == "signup ada@example.com\nquit\n")

    let second = try await Self.start(scratch, ["--data-dir", scratch.data])
    try await second.waitFor("restored ada@example.com")
    second.type("\u{1B}[A\u{1B}[A")
    try await second.waitFor("signin> signup ada@example.com")
    second.type("\u{15}whoami\r")
    try await second.waitFor("ada@example.com")
    second.type("quit\r")
    #expect(try await second.exitStatus() == 0)
  }

  @Test func controlCCancelsASlowSignInAndTheStateReturns() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--in-memory", "--latency", "60000"])
    terminal.type("anonymous\r")
    try await terminal.waitFor("working… (Ctrl-C cancels)")
    terminal.type("\u{03}")
    try await terminal.waitFor("error (cancelled)")
    terminal.type("state\r")
    try await terminal.waitFor("signed out")
    // Ctrl-C abandons a half-typed line; twice at an empty prompt leaves.
    terminal.type("whoa\u{03}")
    try await terminal.waitFor("signin> whoa^C")
    terminal.type("\u{03}")
    try await terminal.waitFor("press Ctrl-C again to leave")
    terminal.type("\u{03}")
    #expect(try await terminal.exitStatus() == 0)
  }

  @Test func theAccountChooserListsEmailsUsedBefore() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch)
    terminal.type("google\r")
    try await terminal.waitFor("(none yet: type an email)")
    terminal.type("grace@example.com\r")
    try await terminal.waitFor("signed in as grace@example.com")
    terminal.type("signout\rgoogle\r")
    try await terminal.waitFor("1) grace@example.com")
    terminal.type("1\r")
    try await terminal.waitFor("signed in as grace@example.com")
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0)
  }

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
    let scratch = Scratch()
    let coloured = try await Self.start(scratch)
    coloured.type("whoami\r")
    try await coloured.waitFor("No user is signed in")
    coloured.type("quit\r")
    _ = try await coloured.exitStatus()
    #expect(coloured.rawTranscript.contains("\u{1B}[31merror (no-current-user)"))

    let plain = try await Self.start(scratch, environment: ["NO_COLOR": "1"])
    plain.type("whoami\r")
    try await plain.waitFor("No user is signed in")
    plain.type("quit\r")
    _ = try await plain.exitStatus()
    #expect(!plain.rawTranscript.contains("\u{1B}[31m"))
    #expect(!plain.rawTranscript.contains("\u{1B}[36m"))
  }

  /// Signs up ada@example.com with pw-123456, then verifies the address from the mailbox.
  static func signUpVerified(_ terminal: PseudoTerminal) async throws {
    try await enter(terminal, "signup ada@example.com", then: "New password: ")
    try await enter(terminal, "pw-123456", then: "Repeat it: ")
    try await enter(terminal, "pw-123456", then: "signed up as ada@example.com")
    try await enter(terminal, "verify-email", then: "verification code sent")
    terminal.type("mailbox ada@example.com\r")
    let verification = try await terminal.line(after: "VERIFY_EMAIL to ada@example.com: ")
    try await enter(terminal, "apply-code \(verification)", then: "code applied")
  }

  /// Enrols an authenticator app named Phone with this step's code; returns its secret.
  static func enrolAuthenticatorApp(_ terminal: PseudoTerminal) async throws -> [UInt8] {
    terminal.type("totp-enroll Phone\r")
    let secret = try #require(Base32.decode(try await terminal.line(after: "secret: ")))
    try await terminal.waitFor("otpauth://totp/SignInKit:ada@example.com?secret=")
    try await enter(
      terminal, OneTimePassword.totp(secret: secret, at: Date()), then: "second factor added: totp \"Phone\"")
    return secret
  }

  @Test func anAuthenticatorAppBecomesASecondFactorThatSignInAsksFor() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--data-dir", scratch.data])
    func enter(_ line: String, then text: String) async throws {
      terminal.type(line + "\r")
      try await terminal.waitFor(text)
    }
    try await Self.signUpVerified(terminal)
    let secret = try await Self.enrolAuthenticatorApp(terminal)
    try await enter("whoami", then: "second factors: totp \"Phone\"")

    try await enter("signout", then: "signed out")
    try await enter("signin ada@example.com", then: "Password for ada@example.com: ")
    try await enter("pw-123456", then: "second factor required: totp \"Phone\"")
    try await terminal.waitFor("Code from the app: ")
    // The enrollment used this step's code, and a code works once (RFC 6238 §5.2): the next
    // step's code, which the server accepts as a phone clock a little ahead, whenever this runs.
    try await enter(
      OneTimePassword.totp(secret: secret, at: Date().addingTimeInterval(30)), then: "signed in as ada@example.com")
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0)
    #expect(!terminal.transcript.contains("pw-123456"))
  }

  /// Review V (high): a passkey that reports presence only is a first factor; the REPL asks for
  /// the account's second factor after it, as after a password. A verifying passkey counts as
  /// both factors.
  @Test func aPasskeyWithoutUserVerificationIsFollowedByTheSecondFactorStep() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--data-dir", scratch.data])
    try await Self.signUpVerified(terminal)
    try await Self.enter(terminal, "passkey enrol Laptop", then: "passkey enrolled (development authenticator)")
    let secret = try await Self.enrolAuthenticatorApp(terminal)

    try await Self.enter(terminal, "signout", then: "signed out")
    try await Self.enter(terminal, "passkey signin --presence-only", then: "second factor required: totp \"Phone\"")
    try await terminal.waitFor("Code from the app: ")
    try await Self.enter(
      terminal, OneTimePassword.totp(secret: secret, at: Date().addingTimeInterval(30)),
      then: "signed in with a passkey as ada@example.com")
    try await Self.enter(terminal, "signout", then: "signed out")
    try await Self.enter(terminal, "passkey signin", then: "signed in with a passkey as ada@example.com")
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0)
  }

  /// Ctrl-C reads the same at every prompt a command shows: the command was cancelled.
  @Test func controlCAtAnyPromptCancelsTheCommandInTheSameWords() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch)
    terminal.type("anonymous\r")
    try await terminal.waitFor("signed in as an anonymous user")
    terminal.type("delete-account\r")
    try await terminal.waitFor("Type yes to go on: ")
    terminal.type("\u{03}")
    try await terminal.waitFor("error (cancelled): Cancelled; nothing changed.")
    terminal.type("signin ada@example.com\r")
    try await terminal.waitFor("Password for ada@example.com: ")
    terminal.type("\u{03}")
    try await terminal.waitFor("error (cancelled): Cancelled; nothing changed.")
    terminal.type("link google\r")
    try await terminal.waitFor("Account: ")
    terminal.type("\u{03}")
    try await terminal.waitFor("error (cancelled): Cancelled; nothing changed.")
    terminal.type("whoami\r")
    try await terminal.waitFor("an anonymous user")
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0)
    #expect(!terminal.transcript.contains("user-cancelled"))
  }

  @Test func passwordsAreAskedTwiceWithoutEchoAndMustMatch() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch)
    terminal.type("signup ada@example.com\r")
    try await terminal.waitFor("New password: ")
    terminal.type("first-secret\r")
    try await terminal.waitFor("Repeat it: ")
    terminal.type("second-secret\r")
    try await terminal.waitFor("The two passwords differ; nothing changed")
    // Not a cancellation: the answer was wrong, and the line says what to type.
    #expect(!terminal.transcript.contains("user-cancelled"))
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0)
    #expect(!terminal.transcript.contains("secret"))
  }
}
