import Foundation
import SignInKit

/// `anonymous`: Sign in without an account.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct AnonymousCommand: REPLCommand {
  package static let name = "anonymous"
  package static let usage = "anonymous"
  package static let summary = "Sign in without an account."
}

extension AnonymousCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    let result = try await session.auth.signInAnonymously()
    await session.say("signed in as \(TranscriptFormatter.who(result.user))")
  }
}
