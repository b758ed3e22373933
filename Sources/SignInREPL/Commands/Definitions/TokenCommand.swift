import Foundation
import SignInKit

/// `token [--force] [--claims] [--reveal]`: Show the ID token (redacted unless --reveal).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct TokenCommand: REPLCommand {
  package static let name = "token"
  package static let usage = "token [--force] [--claims] [--reveal]"
  package static let summary = "Show the ID token (redacted unless --reveal)."

  package var force = false
  package var claims = false
  package var reveal = false
}

extension TokenCommand {
  package init(arguments: [String]) throws(CommandError) {
    let flags = Set(arguments)
    guard flags.isSubset(of: ["--force", "--claims", "--reveal"]), flags.count == arguments.count else {
      throw Self.usageError
    }
    force = flags.contains("--force")
    claims = flags.contains("--claims")
    reveal = flags.contains("--reveal")
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    ["--force", "--claims", "--reveal"].filter { !arguments.contains($0) }
  }

  package func run(in session: isolated REPLSession) async throws {
    let result = try await session.auth.idTokenResult(forceRefresh: force)
    if claims {
      await session.say(
        "signed in with \(result.signInProvider.map(TranscriptFormatter.name(of:)) ?? "an unknown method"); "
          + "issued \(REPLSession.stamp(result.issuedAt)), expires \(REPLSession.stamp(result.expirationDate))"
          + (result.authTime.map { "; last sign-in \(REPLSession.stamp($0))" } ?? ""))
      await session.say(ClaimValue.object(result.claims).description)
    }
    let token = result.token
    await session.say(reveal ? token : "ID token: \(token.count) characters (use --reveal to show it)")
  }
}
