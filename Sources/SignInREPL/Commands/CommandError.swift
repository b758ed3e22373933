/// Why a line could not be turned into a command, in words that say what to type instead.
///
/// - Concurrency: `Sendable` value.
package enum CommandError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No such command; `suggestion` is the closest one, if any is close. The word is never shown:
  /// a line that is not a command may be a password typed at the wrong prompt.
  case unknownCommand(String, suggestion: String?)
  /// `help TOPIC` for a topic that is not a command (shown: it followed `help`).
  case unknownTopic(String, suggestion: String?)
  /// The command exists but its arguments are wrong; carries the usage line.
  case usage(String)
  /// An argument has the wrong shape (an email without a domain): what is wrong, and the usage.
  case invalidArgument(String, usage: String)
  /// An answer typed at a command's prompt that cannot be used (two passwords that differ, a
  /// number not in the list): what was wrong, and what to type instead.
  case unusableAnswer(String)
  /// A quote was opened and never closed.
  case unbalancedQuote(Character)
  /// The line is longer than ``CommandLexer/maximumLineLength``.
  case lineTooLong(Int)

  package var description: String {
    switch self {
    case .unknownCommand(_, let suggestion):
      "Unknown command; nothing was run or kept."
        + (suggestion.map { " Did you mean '\($0)'?" } ?? "") + " Type 'help' for the list."
    case .unknownTopic(let name, let suggestion?):
      "Unknown command '\(name)'. Did you mean '\(suggestion)'? Type 'help' for the list."
    case .unknownTopic(let name, nil):
      "Unknown command '\(name)'. Type 'help' for the list."
    case .usage(let usage):
      "Usage: \(usage)"
    case .invalidArgument(let problem, let usage):
      "\(problem)\nUsage: \(usage)"
    case .unusableAnswer(let problem):
      problem
    case .unbalancedQuote(let quote):
      "A \(quote) quote is not closed. Close it, or escape it with a backslash."
    case .lineTooLong(let length):
      "The line is \(length) bytes; a command line may be at most "
        + "\(CommandLexer.maximumLineLength) bytes. Nothing was run."
    }
  }
}
