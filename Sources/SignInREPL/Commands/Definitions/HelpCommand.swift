import Foundation
import SignInKit

/// `help [COMMAND]`: List commands, or explain one.
///
/// - Concurrency: `Sendable` value; ``run(in:)`` runs on the session's actor.
package struct HelpCommand: REPLCommand {
  package static let name = "help"
  package static let usage = "help [COMMAND]"
  package static let summary = "List commands, or explain one."

  package var topic: String? = nil
}

extension HelpCommand {
  package init(arguments: [String]) throws(CommandError) {
    guard arguments.count <= 1 else { throw Self.usageError }
    if let word = arguments.first {
      guard let command = CommandCatalog.command(named: word.lowercased()) else {
        throw .unknownTopic(word, suggestion: CommandCatalog.suggestion(for: word))
      }
      topic = command.name
    }
  }

  package static func completions(after arguments: [String], knownEmails: [String]) -> [String] {
    arguments.isEmpty ? CommandCatalog.commands.map { $0.name } : []
  }

  package func run(in session: isolated REPLSession) async throws {
    if let topic, let command = CommandCatalog.command(named: topic) {
      await session.say("\(command.usage)\n  \(command.summary)")
    } else {
      await session.say(CommandCatalog.commands.map { "\($0.usage)\n    \($0.summary)" }.joined(separator: "\n"))
    }
  }
}
