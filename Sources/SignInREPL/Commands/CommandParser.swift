import Foundation
import SignInKit

/// Turns a line into checked commands: each line's words go to the ``REPLCommand`` its first word
/// names, which checks its arguments, or a ``CommandError`` that shows the usage line.
///
/// - Concurrency: stateless functions, any isolation.
package enum CommandParser {
  /// Every command on `line` (separated by `;`), parsed.
  /// - Throws: the first ``CommandError``; nothing on the line runs then.
  package static func parse(line: String) throws(CommandError) -> [any REPLCommand] {
    var commands: [any REPLCommand] = []
    for words in try CommandLexer.commands(in: line) {
      commands.append(try parse(words: words))
    }
    return commands
  }

  /// One command from its words (the first is the command's name).
  package static func parse(words: [String]) throws(CommandError) -> any REPLCommand {
    guard let first = words.first else { throw .usage(HelpCommand.usage) }
    let name = first.lowercased()
    guard let command = CommandCatalog.command(named: name) else {
      throw .unknownCommand(first, suggestion: CommandCatalog.suggestion(for: name))
    }
    return try command.init(arguments: Array(words.dropFirst()))
  }
}
