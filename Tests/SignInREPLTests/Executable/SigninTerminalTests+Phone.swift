import Foundation
import Testing

/// Phone numbers at the terminal: the embedded backend shows each text as the phone would, and
/// the person types the code.
extension SigninTerminalTests {
  /// Types `line`, then waits for `text`.
  static func enter(_ terminal: PseudoTerminal, _ line: String, then text: String) async throws {
    terminal.type(line + "\r")
    try await terminal.waitFor(text)
  }

  /// Waits for the text to `number` and types its code.
  static func typeTextedCode(_ terminal: PseudoTerminal, to number: String) async throws {
    let code = try await terminal.line(after: "text to \(number): ").trimmingCharacters(in: .whitespacesAndNewlines)
    try await terminal.waitFor("Code from the text: ")
    terminal.type(code + "\r")
  }

  @Test func aPhoneNumberSignsUpLinksChangesAndGuardsASignInAsASecondFactor() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--data-dir", scratch.data])
    terminal.type("phone +1 555 555 0100\r")
    try await Self.typeTextedCode(terminal, to: "+15555550100")
    try await terminal.waitFor("signed up as +15555550100")
    try await Self.enter(terminal, "signout", then: "signed out")

    try await Self.enter(terminal, "signup ada@example.com", then: "New password: ")
    try await Self.enter(terminal, "pw-123456", then: "Repeat it: ")
    try await Self.enter(terminal, "pw-123456", then: "signed up as ada@example.com")
    // The number is another account's.
    terminal.type("link phone +15555550100\r")
    try await Self.typeTextedCode(terminal, to: "+15555550100")
    try await terminal.waitFor("error (credential-already-in-use)")
    terminal.type("link phone +447700900123\r")
    try await Self.typeTextedCode(terminal, to: "+447700900123")
    try await terminal.waitFor("linked +447700900123 to ada@example.com")
    terminal.type("change-phone +447700900999\r")
    try await Self.typeTextedCode(terminal, to: "+447700900999")
    try await terminal.waitFor("phone number changed to +447700900999")
    try await Self.enter(terminal, "unlink phone", then: "unlinked phone")

    try await Self.enter(terminal, "verify-email", then: "verification code sent")
    terminal.type("mailbox ada@example.com\r")
    let verification = try await terminal.line(after: "VERIFY_EMAIL to ada@example.com: ")
    try await Self.enter(terminal, "apply-code \(verification)", then: "code applied")
    terminal.type("mfa enrol sms +15555550123 Work\r")
    try await Self.typeTextedCode(terminal, to: "+15555550123")
    try await terminal.waitFor("second factor added: phone \"Work\" +*******0123")

    try await Self.enter(terminal, "signout", then: "signed out")
    try await Self.enter(terminal, "signin ada@example.com", then: "Password for ada@example.com: ")
    try await Self.enter(terminal, "pw-123456", then: "second factor required: phone \"Work\" +*******0123")
    try await Self.typeTextedCode(terminal, to: "+15555550123")
    try await terminal.waitFor("signed in as ada@example.com")
    terminal.type("quit\r")
    #expect(try await terminal.exitStatus() == 0, "leaving the prompt is a success; the refused link said so itself")
    #expect(!terminal.transcript.contains("pw-123456"))
  }

  /// The person leaves to read the text; the code is still good when they come back.
  @Test func aTextStillPendingIsTypedAfterARelaunch() async throws {
    let scratch = Scratch()
    let first = try await Self.start(scratch, ["--data-dir", scratch.data])
    first.type("phone +15555550100\r")
    try await first.waitFor("text to +15555550100: ")
    try await Self.enter(first, "", then: "the code stays usable until")
    first.type("quit\r")
    _ = try await first.exitStatus()

    let second = try await Self.start(scratch, ["--data-dir", scratch.data])
    second.type("phone\r")
    try await Self.typeTextedCode(second, to: "+15555550100")
    try await second.waitFor("signed up as +15555550100")
    second.type("quit\r")
    #expect(try await second.exitStatus() == 0)
  }
}
