import Foundation
import SignInKit

/// `signin EMAIL`: Sign in with email and password.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct SignInCommand: REPLCommand {
  package static let name = "signin"
  package static let usage = "signin EMAIL"
  package static let summary = "Sign in with email and password."

  package let email: String
}

extension SignInCommand {
  package init(arguments: [String]) throws(CommandError) {
    email = try Self.email(arguments)
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let password = try await session.secret("Password for \(email): ")
    let result = try await session.withSecondFactor { try await session.auth.signIn(email: email, password: password) }
    await session.say("signed in as \(TranscriptFormatter.who(result.user))")
  }
}
