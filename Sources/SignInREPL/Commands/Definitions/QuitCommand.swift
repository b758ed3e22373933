import Foundation
import SignInKit

/// `quit`: Leave (also exit, or Ctrl-D).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct QuitCommand: REPLCommand {
  package static let name = "quit"
  package static let usage = "quit"
  package static let summary = "Leave (also exit, or Ctrl-D)."
}

extension QuitCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    // The loops stop before running it.
  }
}
