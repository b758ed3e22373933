import Foundation
import SignInKit

/// `whoami`: Show the signed-in user.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct WhoAmICommand: REPLCommand {
  package static let name = "whoami"
  package static let usage = "whoami"
  package static let summary = "Show the signed-in user."
}

extension WhoAmICommand {
  package init(arguments: [String]) throws(CommandError) {
    try Self.none(arguments)
  }

  package func run(in session: isolated REPLSession) async throws {
    guard let user = session.auth.currentUser else { throw AuthError.noCurrentUserForREPL }
    let providers = user.providers.map(\.providerID.rawValue).joined(separator: ", ")
    await session.say(
      "\(TranscriptFormatter.who(user))\(user.displayName.map { "; name: \($0)" } ?? ""); email verified: "
        + "\(user.emailVerified); providers: "
        + (providers.isEmpty ? "none" : providers)
        + (user.secondFactors.isEmpty
          ? "" : "; second factors: " + user.secondFactors.map(TranscriptFormatter.describe).joined(separator: ", "))
        + (user.passkeys.isEmpty ? "" : "; passkeys: " + user.passkeys.map { "\"\($0.name)\"" }.joined(separator: ", "))
        + (session.auth.tenantID.map { "; tenant: \($0)" } ?? ""),
      fields: ["uid": user.uid, "email": user.email ?? "", "tenant": session.auth.tenantID ?? ""])
  }
}
