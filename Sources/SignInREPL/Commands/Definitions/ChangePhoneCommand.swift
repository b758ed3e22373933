import Foundation
import SignInKit

/// `change-phone NUMBER`: Replace this account's phone number with NUMBER, proved by a texted code.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ChangePhoneCommand: REPLCommand {
  package static let name = "change-phone"
  package static let usage = "change-phone NUMBER"
  package static let summary = "Replace this account's phone number with NUMBER, proved by a texted code."

  package let phoneNumber: String
}

extension ChangePhoneCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard !arguments.isEmpty else { throw Self.usageError }
    phoneNumber = arguments.joined()
  }

  package func run(in session: isolated REPLSession) async throws {
    let verification = try await session.auth.verifyPhoneNumber(phoneNumber)
    let code = try await session.textedCode(for: verification)
    let user = try await session.auth.updatePhoneNumber(with: verification, code: code)
    await session.say("phone number changed to \(user.phoneNumber ?? verification.phoneNumber)")
  }
}
