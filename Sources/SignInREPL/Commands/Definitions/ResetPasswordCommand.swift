import Foundation
import SignInKit

/// `reset-password EMAIL`: Send a password-reset code.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ResetPasswordCommand: REPLCommand {
  package static let name = "reset-password"
  package static let usage = "reset-password EMAIL"
  package static let summary = "Send a password-reset code."

  package let email: String
}

extension ResetPasswordCommand {
  package init(arguments: [String]) throws(CommandError) {
    email = try Self.email(arguments)
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.sendPasswordReset(to: email)
    await session.say("reset code sent to \(email); see 'mailbox \(email)'")
  }
}
