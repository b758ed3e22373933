import Foundation
import SignInKit

/// `state`: Show the current state.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct StateCommand: REPLCommand {
  package static let name = "state"
  package static let usage = "state"
  package static let summary = "Show the current state."
}

extension StateCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    let state = session.auth.currentState
    await session.say(TranscriptFormatter.line(for: state))
    await session.say("backend: \(session.backend.summary)", fields: ["backend": session.backend.summary])
  }
}
