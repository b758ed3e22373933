import Foundation
import SignInKit

/// `unlink PROVIDER`: Remove a sign-in method (google.com, apple.com, password, phone).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct UnlinkCommand: REPLCommand {
  package static let name = "unlink"
  package static let usage = "unlink PROVIDER"
  package static let summary = "Remove a sign-in method (google.com, apple.com, password, phone)."

  package let provider: ProviderID
}

extension UnlinkCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch try Self.one(arguments).lowercased() {
    case "google", "google.com": provider = .google
    case "apple", "apple.com": provider = .apple
    case "password", "email": provider = .password
    case "phone": provider = .phone
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["google.com", "apple.com", "password", "phone"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let user = try await session.auth.unlink(provider)
    await session.say("unlinked \(provider): \(TranscriptFormatter.who(user))")
  }
}
