import Foundation
import SignInKit

/// `verify-new-email NEW`: Email NEW a code that makes it this account's email once applied.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct VerifyNewEmailCommand: REPLCommand {
  package static let name = "verify-new-email"
  package static let usage = "verify-new-email NEW"
  package static let summary = "Email NEW a code that makes it this account's email once applied."

  package let email: String
}

extension VerifyNewEmailCommand {
  package init(arguments: [String]) throws(CommandError) {
    email = try Self.email(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.sendEmailVerification(beforeUpdatingEmail: email)
    await session.say("change-of-email code sent to \(email); see 'mailbox \(email)', then 'apply-code CODE'")
  }
}
