import Foundation
import SignInKit

/// `restore`: Restore the previous sign-in.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct RestoreCommand: REPLCommand {
  package static let name = "restore"
  package static let usage = "restore"
  package static let summary = "Restore the previous sign-in."
}

extension RestoreCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    let user = try await session.auth.restorePreviousSignIn(
      alongWith: session.googleForConfiguredIssuer().map { [$0] } ?? [])
    await session.say(user.map { "restored \(TranscriptFormatter.who($0))" } ?? "no previous sign-in")
  }
}
