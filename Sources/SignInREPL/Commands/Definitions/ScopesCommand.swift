import Foundation
import SignInKit

/// `scopes`: Show the Google API scopes granted at the issuer.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ScopesCommand: REPLCommand {
  package static let name = "scopes"
  package static let usage = "scopes"
  package static let summary = "Show the Google API scopes the issuer granted."
}

extension ScopesCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    let provider = try session.googleAPIProvider()
    let scopes = await provider.grantedScopes
    guard !scopes.isEmpty else {
      throw AuthError(.noCurrentUser, "There is no Google session at the issuer; sign in with 'google' first.")
    }
    await session.say("granted: \(scopes.joined(separator: " "))")
  }
}
