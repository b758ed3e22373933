import Foundation
import SignInKit

/// `refresh`: Refresh the ID token now.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct RefreshCommand: REPLCommand {
  package static let name = "refresh"
  package static let usage = "refresh"
  package static let summary = "Refresh the ID token now."
}

extension RefreshCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    _ = try await session.auth.idToken(forceRefresh: true)
    await session.say("token refreshed")
  }
}
