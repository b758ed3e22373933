import Foundation
import SignInKit

/// `send-link EMAIL [--continue URL]`: Email a sign-in link (no password); see 'mailbox', then 'signin-link'.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct SendLinkCommand: REPLCommand {
  package static let name = "send-link"
  package static let usage = "send-link EMAIL [--continue URL]"
  package static let summary = "Email a sign-in link (no password); see 'mailbox', then 'signin-link'."

  package let email: String
  package let continueURL: URL?
}

extension SendLinkCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch arguments.count {
    case 1:
      email = try Self.email(arguments)
      continueURL = nil
    case 3 where arguments[1] == "--continue" && arguments[0].contains("@"):
      guard let url = URL(string: arguments[2]), url.scheme?.hasPrefix("http") == true else { throw Self.usageError }
      email = arguments[0]
      continueURL = url
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let settings = ActionCodeSettings(
      continueURL: continueURL ?? REPLSession.defaultContinueURL, handlesCodeInApp: true)
    try await session.auth.sendSignInLink(to: email, settings: settings)
    await session.say("sign-in link sent to \(email); see 'mailbox \(email)', then 'signin-link \(email) LINK'")
  }
}
