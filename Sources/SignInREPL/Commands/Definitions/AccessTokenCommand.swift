import Foundation
import SignInKit

/// `access-token [--reveal]`: A fresh Google API access token (redacted unless --reveal).
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct AccessTokenCommand: REPLCommand {
  package static let name = "access-token"
  package static let usage = "access-token [--reveal]"
  package static let summary = "Get a fresh Google API access token, refreshed if due (redacted unless --reveal)."

  package var reveal = false
}

extension AccessTokenCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.isEmpty || arguments == ["--reveal"] else { throw Self.usageError }
    reveal = !arguments.isEmpty
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? ["--reveal"] : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let provider = try session.googleAPIProvider()
    let token = try await provider.freshAccessToken()
    let expiry = await provider.tokens?.expiresAt.map { ", expires \(REPLSession.stamp($0))" } ?? ""
    await session.say(
      reveal ? token : "access token: \(token.count) characters\(expiry) (use --reveal to show it)")
  }
}
