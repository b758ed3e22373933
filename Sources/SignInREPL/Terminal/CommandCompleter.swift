/// Tab completion at the prompt: command names for the first word, then each command's
/// arguments (sub-commands, flags, provider ids, and known emails).
///
/// - Concurrency: stateless functions, any isolation.
package enum CommandCompleter {
  /// What Tab can do with the word before the cursor.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Completion: Sendable, Equatable {
    /// The partial word being completed (the characters it replaces).
    package let word: String
    /// Every candidate that starts with `word`, sorted.
    package let candidates: [String]

    /// The text to put in place of `word`: the only candidate and a space, or the longest
    /// prefix the candidates share.
    package var replacement: String {
      if candidates.count == 1 { return candidates[0] + " " }
      guard var prefix = candidates.first else { return word }
      for candidate in candidates.dropFirst() {
        while !candidate.hasPrefix(prefix) { prefix.removeLast() }
      }
      return prefix.count > word.count ? prefix : word
    }
  }

  /// Completes the last word of `line` (the text before the cursor).
  package static func complete(_ line: String, knownEmails: [String]) -> Completion {
    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    let endsWithSpace = line.last == " " || line.isEmpty
    let word = endsWithSpace ? "" : (words.last ?? "")
    let previous = endsWithSpace ? words : Array(words.dropLast())
    let options = candidates(after: previous, knownEmails: knownEmails)
    return Completion(word: word, candidates: options.filter { $0.hasPrefix(word) }.sorted())
  }

  private static func candidates(after words: [String], knownEmails: [String]) -> [String] {
    guard let name = words.first else {
      return CommandCatalog.commands.map { $0.name } + ["exit"]
    }
    guard let command = CommandCatalog.command(named: name) else { return [] }
    return command.completions(after: Array(words.dropFirst()), knownEmails: knownEmails)
  }
}
