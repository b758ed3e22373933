import Foundation
import SignInKit

/// `link email EMAIL [LINK] | link phone NUMBER | link google | link apple`: Add a sign-in method to this account, keeping its uid (an email with a password or a sign-in link, or a phone number).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct LinkCommand: REPLCommand {
  package static let name = "link"
  package static let usage = "link email EMAIL [LINK] | link phone NUMBER | link google | link apple"
  package static let summary =
    "Add a sign-in method to this account, keeping its uid (an email with a password or a sign-in link, a phone number)."

  /// What to link: an email with a password, an email with its sign-in link, or a provider.
  package enum Target: Sendable, Equatable {
    case email(String)
    case emailLink(email: String, link: String)
    case phone(String)
    case provider(ProviderID)
  }

  package let target: Target
}

extension LinkCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch (arguments.first?.lowercased(), arguments.count) {
    case ("email", 2) where arguments[1].contains("@"): target = .email(arguments[1])
    case ("email", 3) where arguments[1].contains("@"): target = .emailLink(email: arguments[1], link: arguments[2])
    case ("phone", 2...): target = .phone(arguments.dropFirst().joined())
    case ("google", 1): target = .provider(.google)
    case ("apple", 1): target = .provider(.apple)
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    switch arguments.count {
    case 0: return ["email", "phone", "google", "apple"]
    case 1 where arguments[0] == "email": return knownEmails
    default: return []
    }
  }

  package var carriesSecret: Bool { if case .emailLink = target { true } else { false } }

  package func run(in session: isolated REPLSession) async throws {
    switch target {
    case .email(let email):
      let password = try await session.newPassword()
      let result = try await session.auth.linkEmail(email, password: password)
      await session.say("linked email: \(TranscriptFormatter.who(result.user))")
    case .emailLink(let email, let link):
      let result = try await session.auth.linkEmail(email, link: link)
      await session.say("linked \(email) to \(TranscriptFormatter.who(result.user))")
    case .phone(let number):
      let verification = try await session.auth.verifyPhoneNumber(number)
      let code = try await session.textedCode(for: verification)
      let result = try await session.auth.linkPhoneNumber(with: verification, code: code)
      await session.say("linked \(result.user.phoneNumber ?? number) to \(TranscriptFormatter.who(result.user))")
    case .provider(let provider):
      let signInProvider: any SignInProvider =
        provider == .google
        ? try await session.googleProvider(GoogleOptions())
        : try await session.appleProvider(idToken: nil, rawNonce: nil)
      do {
        let result = try await session.auth.link(with: signInProvider)
        await session.say("linked \(TranscriptFormatter.name(of: provider)): \(TranscriptFormatter.who(result.user))")
      } catch let error as AuthError where error.code == .credentialAlreadyInUse {
        // The conflict, and the recipe's next step, which uses the credential it handed back.
        session.conflictCredential = error.updatedCredential
        let name = TranscriptFormatter.name(of: provider)
        await session.say("that \(name) account is already \(error.email ?? "another user")'s")
        let next =
          session.auth.currentUser?.isAnonymous == true
          ? "`upgrade \(provider == .google ? "google" : "apple")` signs in to it and deletes this guest account"
          : "sign out, then sign in with \(name)"
        await session.say("next: \(next)")
        throw error
      }
    }
  }
}
