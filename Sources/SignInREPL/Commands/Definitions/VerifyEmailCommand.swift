import Foundation
import SignInKit

/// `verify-email`: Send a verification code.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct VerifyEmailCommand: REPLCommand {
  package static let name = "verify-email"
  package static let usage = "verify-email"
  package static let summary = "Send a verification code."
}

extension VerifyEmailCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.sendEmailVerification()
    await session.say("verification code sent; see 'mailbox'")
  }
}
