import Foundation
import SignInKit

/// `confirm-reset CODE`: Set a new password with a reset code.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ConfirmResetCommand: REPLCommand {
  package static let name = "confirm-reset"
  package static let usage = "confirm-reset CODE"
  package static let summary = "Set a new password with a reset code."

  package let code: String
}

extension ConfirmResetCommand {
  package init(arguments: [String]) throws(CommandError) {
    code = try Self.one(arguments)
  }

  package var carriesSecret: Bool { true }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.confirmPasswordReset(code: code, newPassword: try await session.newPassword())
    await session.say("password reset; sign in with the new password")
  }
}
