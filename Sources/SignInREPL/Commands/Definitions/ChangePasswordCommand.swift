import Foundation
import SignInKit

/// `password`: Change the password; asks twice.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ChangePasswordCommand: REPLCommand {
  package static let name = "password"
  package static let usage = "password"
  package static let summary = "Change the password; asks twice."
}

extension ChangePasswordCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    try await session.auth.updatePassword(try await session.newPassword())
    await session.say("password changed")
  }
}
