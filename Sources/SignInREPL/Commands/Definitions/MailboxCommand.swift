import Foundation
import SignInKit

/// `mailbox [EMAIL]`: Show the codes the embedded backend sent.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct MailboxCommand: REPLCommand {
  package static let name = "mailbox"
  package static let usage = "mailbox [EMAIL]"
  package static let summary = "Show the codes the embedded backend sent."

  package var email: String? = nil
}

extension MailboxCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count <= 1 else { throw Self.usageError }
    email = arguments.first
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? knownEmails : []
  }

  package func run(in session: isolated REPLSession) async throws {
    let messages = try await session.backend.mailbox(for: email)
    if messages.isEmpty { await session.say("no messages") }
    for message in messages {
      var fields = ["code": message.code]
      fields["link"] = message.link
      await session.say(
        "\(message.kind) to \(message.to): \(message.code)" + (message.link.map { "\n  link: \($0)" } ?? ""),
        fields: fields)
    }
  }
}
