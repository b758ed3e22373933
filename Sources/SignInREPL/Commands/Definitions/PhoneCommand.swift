import Foundation
import SignInKit

/// `phone [NUMBER]`: Sign in or up with a code texted to NUMBER; alone, type the code of the text still pending.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct PhoneCommand: REPLCommand {
  package static let name = "phone"
  package static let usage = "phone [NUMBER]"
  package static let summary =
    "Sign in or up with a code texted to NUMBER (+15555550100); alone, type the code of the text still pending."

  /// The number to text; `nil` for the verification still pending.
  package var phoneNumber: String? = nil
}

extension PhoneCommand {
  package init(arguments: [String]) throws(CommandError) {
    // A number typed with spaces (`phone +1 555 555 0100`) is one number.
    phoneNumber = arguments.isEmpty ? nil : arguments.joined()
  }

  package func run(in session: isolated REPLSession) async throws {
    let verification: PhoneVerification
    if let phoneNumber {
      verification = try await session.auth.verifyPhoneNumber(phoneNumber)
    } else {
      guard let pending = try await session.auth.pendingPhoneVerification(), pending.purpose == .phoneNumber else {
        throw AuthError(.noCurrentUser, "No texted code is waiting; `phone +15555550100` texts one.")
      }
      verification = pending
    }
    let code = try await session.textedCode(for: verification)
    let result = try await session.withSecondFactor {
      try await session.auth.signIn(with: verification, code: code)
    }
    await session.say(
      "signed \(result.isNewUser ? "up" : "in") as \(TranscriptFormatter.who(result.user))")
  }
}
