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
    guard let command = words.first else {
      return CommandCatalog.entries.map(\.name) + ["exit"]
    }
    let position = words.count
    switch (command, position) {
    case ("help", 1): return CommandCatalog.entries.map(\.name)
    case ("signin", 1), ("signup", 1), ("reset-password", 1), ("mailbox", 1), ("email", 1), ("send-link", 1),
      ("signin-link", 1):
      return knownEmails
    case ("link", 1): return ["email", "google", "apple"]
    case ("link", 2) where words[1] == "email": return knownEmails
    case ("unlink", 1): return ["google.com", "apple.com", "password"]
    case ("watch", 1): return ["on", "off"]
    case ("google", _)
    where !["--issuer", "--client-id", "--client-secret", "--device-endpoint"].contains(words.last ?? ""):
      return ["--issuer", "--client-id", "--client-secret", "--device", "--device-endpoint"].filter {
        !words.contains($0)
      }
    case ("apple", _) where words.last != "--id-token" && words.last != "--nonce":
      return ["--id-token", "--nonce"].filter { !words.contains($0) }
    case ("token", _): return ["--force", "--claims", "--reveal"].filter { !words.contains($0) }
    case ("profile", _) where words.last != "--name" && words.last != "--photo":
      return ["--name", "--photo"].filter { !words.contains($0) }
    default: return []
    }
  }
}
