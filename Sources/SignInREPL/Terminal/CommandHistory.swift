import Foundation
import SignInFoundation
import SignInKit

/// The command lines typed at the prompt, kept in a file so up-arrow reaches earlier sessions.
/// Only lines that parsed as commands are kept: passwords are never typed as command lines, and
/// a password typed at the prompt by mistake is not a command, so it never reaches the file.
/// Each line is appended as it is accepted, so a crash loses nothing; the file is trimmed to the
/// newest ``limit`` lines when it is opened.
///
/// - Concurrency: `Sendable` value; one owner writes the file.
package struct CommandHistory: Sendable {
  package static let limit = 1000
  package private(set) var lines: [String]
  package let file: URL?

  /// The history in `file` (created on the first line), or an in-memory one when `nil`.
  package init(file: URL?) {
    self.file = file
    guard let file, let data = try? Data(contentsOf: file) else {
      lines = []
      return
    }
    let all = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    lines = Array(all.suffix(Self.limit))
    if all.count > Self.limit { rewrite() }
  }

  /// `$XDG_STATE_HOME/signinkit/history`, or `~/.local/state/signinkit/history`.
  package static func defaultFile(environment: [String: String]) -> URL {
    let stateHome =
      environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? (SigninCommand.home(environment) + "/.local/state")
    return URL(fileURLWithPath: stateHome).appendingPathComponent("signinkit/history")
  }

  /// Adds `line` unless it is blank or repeats the previous line.
  package mutating func add(_ line: String) {
    let line = line.trimmingCharacters(in: .whitespaces)
    guard !line.isEmpty, !line.contains("\n"), line != lines.last else { return }
    lines.append(line)
    if lines.count > Self.limit { lines.removeFirst(lines.count - Self.limit) }
    append(line)
  }

  private func append(_ line: String) {
    guard let file else { return }
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      if !FileManager.default.fileExists(atPath: file.path) {
        _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
      }
      let handle = try FileHandle(forWritingTo: file)
      defer { try? handle.close() }
      try handle.seekToEnd()
      try handle.write(contentsOf: Data((line + "\n").utf8))
    } catch {
      // History is a convenience: a read-only home must not stop the REPL.
    }
  }

  /// Replaces the file with the kept lines, owner-only like the file it replaces.
  private func rewrite() {
    guard let file else { return }
    let text = lines.map { $0 + "\n" }.joined()
    try? AtomicFile.write(Data(text.utf8), to: file, mode: 0o600)
  }
}
