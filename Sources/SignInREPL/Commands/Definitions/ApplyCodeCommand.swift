import Foundation
import SignInKit

/// `apply-code CODE`: Apply an email-verification or change-of-email code.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ApplyCodeCommand: REPLCommand {
  package static let name = "apply-code"
  package static let usage = "apply-code CODE"
  package static let summary = "Apply an email-verification or change-of-email code."

  package let code: String
}

extension ApplyCodeCommand {
  package init(arguments: [String]) throws(CommandError) {
    code = try Self.one(arguments)
  }

  package var carriesSecret: Bool { true }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.applyActionCode(code)
    await session.say("code applied")
  }
}
