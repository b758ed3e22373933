import Foundation
import Testing

/// `start` at the terminal: the sign-in flow of the drop-in screens, asked step by step.
extension SigninTerminalTests {
  @Test func startWalksThePhoneSignInAndGoesBackOnABlankAnswer() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--data-dir", scratch.data])
    try await Self.enter(terminal, "start", then: "Choice (1-4): ")
    // A blank answer on the first step ends the walk, changing nothing.
    try await Self.enter(terminal, "", then: "Nothing was chosen; nothing changed.")

    try await Self.enter(terminal, "start", then: "Choice (1-4): ")
    try await Self.enter(terminal, "3", then: "Phone number (+ and country code, or the national number): ")
    try await Self.enter(terminal, "07700 900123", then: "Country calling code (44 for the UK): ")
    terminal.type("44\r")
    let code = try await terminal.line(after: "text to +447700900123: ").trimmingCharacters(in: .whitespacesAndNewlines)
    try await terminal.waitFor("Enter the code we texted to +********0123.")
    try await Self.enter(terminal, "000000" == code ? "111111" : "000000", then: "error: That code is wrong.")
    try await terminal.waitFor("Code: ")
    try await Self.enter(terminal, code, then: "signed in as +447700900123")
    terminal.type("quit\r")
    #expect(
      try await terminal.exitStatus() == 0, "leaving the prompt is a success; the walk that was left said so itself")
  }

  @Test func startSignsUpWithEmailAndPasswordCheckedAgainstThePolicyFirst() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--data-dir", scratch.data])
    try await Self.enter(terminal, "start", then: "Choice (1-4): ")
    try await Self.enter(terminal, "1", then: "type 'signup' to create an account")
    try await Self.enter(terminal, "signup", then: "Create account")
    try await Self.enter(terminal, "ada@example.com", then: "Password: ")
    try await Self.enter(terminal, "short", then: "error: Your password needs at least 6 characters.")
    try await Self.enter(terminal, "ada@example.com", then: "Password: ")
    try await Self.enter(terminal, "pw-123456", then: "signed in as ada@example.com")
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0)
    #expect(!terminal.transcript.contains("pw-123456"))
  }
}
