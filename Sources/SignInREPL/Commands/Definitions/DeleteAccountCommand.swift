import Foundation
import SignInKit

/// `delete-account`: Delete this account.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct DeleteAccountCommand: REPLCommand {
  package static let name = "delete-account"
  package static let usage = "delete-account"
  package static let summary = "Delete this account."
}

extension DeleteAccountCommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
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
