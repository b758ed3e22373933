import Foundation
import SignInKit

/// `reauth [password|google|apple]`: Sign in again as the signed-in user, for a change that needs a recent sign-in (by default with the password).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct ReauthCommand: REPLCommand {
  package static let name = "reauth"
  package static let usage = "reauth [password|google|apple]"
  package static let summary =
    "Sign in again as the signed-in user, for a change that needs a recent sign-in (by default with the password)."

  package var provider: ProviderID = .password
}

extension ReauthCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch arguments.first?.lowercased() {
    case nil, "password", "email": provider = .password
    case "google", "google.com": provider = .google
    case "apple", "apple.com": provider = .apple
    default: throw Self.usageError
    }
    guard arguments.count <= 1 else { throw Self.usageError }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["password", "google", "apple"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    guard let user = session.auth.currentUser else { throw AuthError.noCurrentUserForREPL }
    let refreshed: User
    switch provider {
    case .google:
      refreshed = try await session.auth.reauthenticate(with: try await session.googleProvider(GoogleOptions()))
    case .apple:
      refreshed = try await session.auth.reauthenticate(
        with: try await session.appleProvider(idToken: nil, rawNonce: nil))
    default:
      guard let email = user.email else {
        throw AuthError(.noSuchProvider, "This account has no email and password; reauth with google or apple.")
      }
      let password = try await session.secret("Password for \(email): ")
      refreshed = try await session.auth.reauthenticate(email: email, password: password)
    }
    await session.say(
      "signed in again as \(TranscriptFormatter.who(refreshed)); changes that need a recent sign-in work now")
  }
}
