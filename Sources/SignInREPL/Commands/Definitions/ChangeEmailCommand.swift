import Foundation
import SignInKit

/// `email NEW`: Change the email address.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ChangeEmailCommand: REPLCommand {
  package static let name = "email"
  package static let usage = "email NEW"
  package static let summary = "Change the email address."

  package let email: String
}

extension ChangeEmailCommand {
  package init(arguments: [String]) throws(CommandError) {
    email = try Self.email(arguments)
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.updateEmail(email)
    await session.say("email changed to \(email)")
  }
}
