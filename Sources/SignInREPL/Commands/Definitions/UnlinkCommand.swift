import Foundation
import SignInKit

/// `unlink PROVIDER [--yes]`: Remove a sign-in method (google.com, apple.com, password, phone);
/// the last one only after asking (unless --yes).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct UnlinkCommand: REPLCommand {
  package static let name = "unlink"
  package static let usage = "unlink PROVIDER [--yes]"
  package static let summary =
    "Remove a sign-in method (google.com, apple.com, password, phone); the last one only after asking (unless --yes)."

  package let provider: ProviderID
  /// Remove the last method without asking, for scripts.
  package var confirmed = false
}

extension UnlinkCommand {
  package init(arguments: [String]) throws(CommandError) {
    var arguments = arguments
    if arguments.count == 2, arguments.last == "--yes" {
      confirmed = true
      arguments.removeLast()
    }
    switch try Self.one(arguments).lowercased() {
    case "google", "google.com": provider = .google
    case "apple", "apple.com": provider = .apple
    case "password", "email": provider = .password
    case "phone": provider = .phone
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    if arguments.count == 1 { return ["--yes"] }
    return arguments.isEmpty ? ["google.com", "apple.com", "password", "phone"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    // The last way in: the account would be left with no method and no passkey to sign in with.
    if !confirmed, let user = session.auth.currentUser, user.passkeys.isEmpty,
      user.providers.map(\.providerID) == [provider]
    {
      try await session.confirm(
        "\(provider) is the only way to sign in to \(TranscriptFormatter.who(user)): after unlinking it, nobody can "
          + "sign in to the account again.")
    }
    let user = try await session.auth.unlink(provider)
    await session.say("unlinked \(provider): \(TranscriptFormatter.who(user))")
  }
}
