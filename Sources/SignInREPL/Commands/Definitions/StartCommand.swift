import Foundation
import SignInKit

/// `start`: Sign in step by step, as a sign-in screen asks (the flow SignInKitUI's screens draw).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct StartCommand: REPLCommand {
  package static let name = "start"
  package static let usage = "start"
  package static let summary = "Sign in step by step, as a sign-in screen asks; a blank answer goes back a step."
}

extension StartCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.walk(session.makeSignInFlow())
  }
}
