import Foundation
import Testing

extension SigninTerminalTests {
  /// A terminal that cannot redraw a line gets no spinner: every frame would be a new line.
  @Test func aDumbTerminalGetsNoSpinner() async throws {
    let scratch = Scratch()
    let terminal = try await Self.start(scratch, ["--in-memory", "--latency", "400"], environment: ["TERM": "dumb"])
    try await Self.enter(terminal, "anonymous", then: "signed in as an anonymous user")
    terminal.type("quit\r")
    _ = try await terminal.exitStatus()
    #expect(!terminal.rawTranscript.contains(where: { "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".contains($0) }))
  }
}
