import Foundation
import SignInKit

/// `signout`: Sign out.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct SignOutCommand: REPLCommand {
  package static let name = "signout"
  package static let usage = "signout"
  package static let summary = "Sign out."
}

extension SignOutCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.signOut()
    await session.say("signed out")
  }
}
