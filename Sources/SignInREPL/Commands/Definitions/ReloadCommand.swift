import Foundation
import SignInKit

/// `reload`: Fetch the profile again.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ReloadCommand: REPLCommand {
  package static let name = "reload"
  package static let usage = "reload"
  package static let summary = "Fetch the profile again."
}

extension ReloadCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    let user = try await session.auth.reload()
    await session.say("reloaded \(TranscriptFormatter.who(user))")
  }
}
