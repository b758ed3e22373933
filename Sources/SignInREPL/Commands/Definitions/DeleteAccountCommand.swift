import Foundation
import SignInKit

/// `delete-account [--yes]`: Delete this account, after asking (unless --yes).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct DeleteAccountCommand: REPLCommand {
  package static let name = "delete-account"
  package static let usage = "delete-account [--yes]"
  package static let summary = "Delete this account, after asking (unless --yes)."

  /// Delete without asking, for scripts.
  package var confirmed = false
}

extension DeleteAccountCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.isEmpty || arguments == ["--yes"] else { throw Self.usageError }
    confirmed = !arguments.isEmpty
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["--yes"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    guard let user = session.auth.currentUser else { throw AuthError.noCurrentUserForREPL }
    if !confirmed {
      try await session.confirm(
        "This deletes the account \(TranscriptFormatter.who(user)) and everything it holds; it cannot be undone.")
    }
    // An account that signs in with Apple revokes Apple's token first, as the App Store asks.
    if let apple = session.auth.currentUser?.providers.first(where: { $0.providerID == .apple }),
      let email = apple.email, session.backend.acceptsEmbeddedIdentityProviders
    {
      try await session.auth.deleteAccount(
        reauthenticatingWith: REPLSession.embeddedApple(try session.identityProvider(.apple), email: email))
      await session.say("Apple's token revoked; account deleted")
    } else {
      try await session.auth.deleteAccount()
      await session.say("account deleted")
    }
  }
}
