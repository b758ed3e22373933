import Foundation
import SignInKit

/// `custom-token TOKEN`: Sign in with a custom token your server minted (signin serve also takes unsigned ones).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct CustomTokenCommand: REPLCommand {
  package static let name = "custom-token"
  package static let usage = "custom-token TOKEN"
  package static let summary = "Sign in with a custom token your server minted (signin serve also takes unsigned ones)."

  package let token: String
}

extension CustomTokenCommand {
  package init(arguments: [String]) throws(CommandError) {
    token = try Self.one(arguments)
  }

  package var carriesSecret: Bool { true }

  package func run(in session: isolated REPLSession) async throws {
    let result = try await session.auth.signIn(customToken: token)
    await session.say(
      TranscriptFormatter.signedIn(result),
      fields: ["uid": result.user.uid])
  }
}
