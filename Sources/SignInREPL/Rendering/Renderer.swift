import Foundation
import SignInKit

/// The one place the REPL writes to the terminal: command results, and, while watching, every
/// state change and event. Lines are plain words, or JSON objects with `--json`.
///
/// - Concurrency: `@UIStateActor`; every line is written in the actor's order.
@UIStateActor public final class Renderer {
  public let json: Bool
  public var isWatching = true
  private var lastState: AuthState?

  public nonisolated init(json: Bool) { self.json = json }

  /// A command's result line.
  public func say(_ text: String, fields: [String: String] = [:]) {
    if json {
      var object = fields
      object["type"] = "result"
      object["text"] = text
      write(TranscriptFormatter.encode(object))
    } else {
      write(text)
    }
  }

  /// A failed command's error.
  public func show(_ error: AuthError) {
    write(json ? TranscriptFormatter.json(for: error) : TranscriptFormatter.line(for: error))
  }

  /// A usage problem (unknown command, wrong arguments).
  public func show(_ error: CommandError) {
    write(json ? TranscriptFormatter.encode(["type": "error", "code": "usage", "message": error.description]) : error.description)
  }

  /// A state from the stream, when watching; an unchanged state is not repeated.
  public func show(_ state: AuthState) {
    defer { lastState = state }
    guard isWatching, state != lastState else { return }
    write(json ? TranscriptFormatter.json(for: state) : "• " + TranscriptFormatter.line(for: state))
  }

  /// An event from the stream, when watching and worth a line.
  public func show(_ event: AuthEvent) {
    guard isWatching, !json, let line = TranscriptFormatter.line(for: event) else { return }
    if case .failed = event { return }  // the command that failed reports it
    if case .signedIn = event { return }  // the state line says it
    write("• " + line)
  }

  private func write(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
