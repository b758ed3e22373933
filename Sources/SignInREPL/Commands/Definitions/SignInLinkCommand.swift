import Foundation
import SignInKit

/// `signin-link EMAIL LINK`: Sign in with the link from a sign-in email.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct SignInLinkCommand: REPLCommand {
  package static let name = "signin-link"
  package static let usage = "signin-link EMAIL LINK"
  package static let summary = "Sign in with the link from a sign-in email."

  package let email: String
  package let link: String
}

extension SignInLinkCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count == 2, arguments[0].contains("@") else { throw Self.usageError }
    email = arguments[0]
    link = arguments[1]
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package var carriesSecret: Bool { true }

  package func run(in session: isolated REPLSession) async throws {
    let result = try await session.withSecondFactor { try await session.auth.signIn(email: email, link: link) }
    await session.say(TranscriptFormatter.signedIn(result))
  }
}
