/// Splits REPL input into words and commands, shell style: words are separated by spaces,
/// `'…'` and `"…"` quote (a backslash escapes the next character outside single quotes), and
/// `;` outside quotes separates commands (`signin -c 'signup a@b.co; whoami'`).
///
/// - Concurrency: stateless functions, any isolation.
package enum CommandLexer {
  /// Longer lines are refused whole, so a pasted 1 MB blob cannot run as commands.
  package static let maximumLineLength = 64 * 1024

  /// The commands of `line`, each as its words; empty commands and `#` comments are dropped.
  /// - Throws: ``CommandError/unbalancedQuote(_:)`` or ``CommandError/lineTooLong(_:)``.
  package static func commands(in line: String) throws(CommandError) -> [[String]] {
    guard line.utf8.count <= maximumLineLength else {
      throw .lineTooLong(line.utf8.count)
    }
    var commands: [[String]] = []
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    func endWord() {
      if inWord { words.append(word) }
      word = ""
      inWord = false
    }
    func endCommand() {
      endWord()
      if !words.isEmpty, !words[0].hasPrefix("#") { commands.append(words) }
      words = []
    }
    for character in line {
      if escaped {
        word.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case ("'", _):
        word.append(character)
      case (_, "\\"):
        escaped = true
        inWord = true
      case ("\"", _):
        word.append(character)
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, ";"):
        endCommand()
      case (nil, _) where character.isWhitespace:
        endWord()
      default:
        word.append(character)
        inWord = true
      }
    }
    if let quote { throw .unbalancedQuote(quote) }
    if escaped { word.append("\\") }
    endCommand()
    return commands
  }
}
