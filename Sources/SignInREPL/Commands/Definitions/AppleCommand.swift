import Foundation
import SignInKit

/// `apple [--account EMAIL | --id-token TOKEN --nonce RAW]`: Sign in with Apple (offline: the embedded IdP, its account asked or given), or with a token obtained elsewhere.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct AppleCommand: REPLCommand {
  package static let name = "apple"
  package static let usage = "apple [--account EMAIL | --id-token TOKEN --nonce RAW]"
  package static let summary =
    "Sign in with Apple (offline: the embedded IdP, its account asked or given), or with a token obtained elsewhere."

  package var idToken: String? = nil
  package var rawNonce: String? = nil
  /// The embedded IdP's account to sign in, instead of asking.
  package var account: String? = nil
}

extension AppleCommand {
  package init(arguments: [String]) throws(CommandError) {
    switch arguments.count {
    case 0: break
    case 2:
      guard arguments[0] == "--account", arguments[1].contains("@") else { throw Self.usageError }
      account = arguments[1]
    case 4:
      let pairs = Dictionary(
        uniqueKeysWithValues: [(arguments[0], arguments[1]), (arguments[2], arguments[3])].map { ($0.0, $0.1) })
      guard Set(pairs.keys) == ["--id-token", "--nonce"], let token = pairs["--id-token"], let nonce = pairs["--nonce"]
      else { throw Self.usageError }
      idToken = token
      rawNonce = nonce
    default: throw Self.usageError
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    guard arguments.last != "--id-token", arguments.last != "--nonce" else { return [] }
    guard arguments.last != "--account", !arguments.contains("--account") else { return [] }
    guard arguments.isEmpty else { return ["--id-token", "--nonce"].filter { !arguments.contains($0) } }
    return ["--account", "--id-token", "--nonce"]
  }

  package var carriesSecret: Bool { idToken != nil }

  package func run(in session: isolated REPLSession) async throws {
    let provider = try await session.appleProvider(idToken: idToken, rawNonce: rawNonce, account: account)
    let result = try await session.auth.signIn(with: provider)
    await session.say(TranscriptFormatter.signedIn(result))
  }
}
