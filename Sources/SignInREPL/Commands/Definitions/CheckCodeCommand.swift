import Foundation
import SignInKit

/// `check-code CODE`: Say what an emailed code is for and for whom, without using it.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct CheckCodeCommand: REPLCommand {
  package static let name = "check-code"
  package static let usage = "check-code CODE"
  package static let summary = "Say what an emailed code is for and for whom, without using it."

  package let code: String
}

extension CheckCodeCommand {
  package init(arguments: [String]) throws(CommandError) {
    code = try Self.one(arguments)
  }

  package var carriesSecret: Bool { true }

  package func run(in session: isolated REPLSession) async throws {
    let info = try await session.auth.checkActionCode(code)
    let change = info.newEmail.map { " → \($0)" } ?? ""
    await session.say(
      "\(TranscriptFormatter.name(of: info.operation)) code for \(info.email ?? "(no email)")\(change); not used",
      fields: ["operation": TranscriptFormatter.name(of: info.operation), "email": info.email ?? ""])
  }
}
