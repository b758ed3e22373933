import Foundation
import Testing

@testable import SignInREPL

@Suite struct CommandHistoryTests {
  final class Scratch: Sendable {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("signin-history-\(UUID().uuidString)/signinkit/history")
    deinit { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }
  }

  @Test func keepsLinesAcrossOpeningsWithoutBlanksOrRepeats() throws {
    let scratch = Scratch()
    var history = CommandHistory(file: scratch.file)
    for line in ["anonymous", "whoami", "whoami", "  ", "signout"] { history.add(line) }
    #expect(history.lines == ["anonymous", "whoami", "signout"])
    #expect(CommandHistory(file: scratch.file).lines == ["anonymous", "whoami", "signout"])
    let permissions = try FileManager.default.attributesOfItem(atPath: scratch.file.path)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
  }

  @Test func trimsToTheNewestLinesWhenOpened() throws {
    let scratch = Scratch()
    try FileManager.default.createDirectory(
      at: scratch.file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let lines = (1...(CommandHistory.limit + 5)).map { "whoami \($0)" }
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: scratch.file)
    let history = CommandHistory(file: scratch.file)
    #expect(history.lines.count == CommandHistory.limit)
    #expect(history.lines.first == "whoami 6")
    #expect(CommandHistory(file: scratch.file).lines == history.lines)
    // The trimmed file is owner-only, whatever the file it replaced was.
    let permissions = try FileManager.default.attributesOfItem(atPath: scratch.file.path)[.posixPermissions] as? Int
    #expect(permissions == 0o600)
  }

  @Test func livesUnderXDGStateHome() {
    #expect(CommandHistory.defaultFile(environment: ["XDG_STATE_HOME": "/s"]).path == "/s/signinkit/history")
    #expect(
      CommandHistory.defaultFile(environment: ["XDG_STATE_HOME": "relative"]).path.hasSuffix(
        ".local/state/signinkit/history"))
  }
}
