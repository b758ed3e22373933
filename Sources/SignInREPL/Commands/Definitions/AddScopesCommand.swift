import Foundation
import SignInKit

/// `add-scopes SCOPE...`: Ask the issuer for more Google API scopes, keeping the session.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct AddScopesCommand: REPLCommand {
  package static let name = "add-scopes"
  package static let usage = "add-scopes SCOPE..."
  package static let summary = "Ask Google for more API scopes (incremental), keeping the session."

  package let scopes: [String]
}

extension AddScopesCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard !arguments.isEmpty, !arguments.contains(where: { $0.isEmpty || $0.hasPrefix("--") }) else {
      throw Self.usageError
    }
    scopes = arguments
  }

  package func run(in session: isolated REPLSession) async throws {
    let granted = try await session.googleAPIProvider().addScopes(scopes)
    await session.say("granted: \(granted.joined(separator: " "))")
  }
}
