import Foundation
import SignInKit

/// `signup EMAIL`: Create an account; asks for a password twice.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct SignUpCommand: REPLCommand {
  package static let name = "signup"
  package static let usage = "signup EMAIL"
  package static let summary = "Create an account; asks for a password twice."

  package let email: String
}

extension SignUpCommand {
  package init(arguments: [String]) throws(CommandError) {
    email = try Self.email(arguments)
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let password = try await session.newPassword()
    let result = try await session.auth.signUp(email: email, password: password)
    await session.say("signed up as \(TranscriptFormatter.who(result.user))")
  }
}
