/// The state of one line being typed: the text, the cursor, and a walk through history. It
/// applies keys and says what they mean; it draws nothing (``display(prompt:width:)`` says what
/// to show), so every editing rule is testable without a terminal.
///
/// - Concurrency: `Sendable` value.
package struct LineEditor: Sendable {
  /// What a key did to the line.
  package enum Outcome: Sendable, Equatable {
    case editing
    case submitted(String)
    /// Ctrl-D on an empty line.
    case endOfInput
    /// Ctrl-C; `hadText` says whether the line was not empty (it is then abandoned).
    case interrupted(hadText: Bool)
    /// Tab: the caller completes the word at the cursor.
    case completionRequested
    /// Ctrl-L: the caller clears the screen.
    case clearScreenRequested
  }

  package private(set) var text: [Character] = []
  package private(set) var cursor = 0
  private let history: [String]
  /// Index into `history` while walking it; `history.count` is the line being typed.
  private var historyIndex: Int
  /// The line being typed, kept while walking history.
  private var draft: [Character] = []

  /// - Parameter history: earlier lines, oldest first; up and down walk them.
  package init(history: [String] = []) {
    self.history = history
    historyIndex = history.count
  }

  /// The text before the cursor.
  package var textBeforeCursor: String { String(text[..<cursor]) }

  package mutating func apply(_ key: Key) -> Outcome {
    switch key {
    case .character(let character):
      text.insert(character, at: cursor)
      cursor += 1
    case .enter:
      return .submitted(String(text))
    case .tab:
      return .completionRequested
    case .backspace:
      guard cursor > 0 else { break }
      cursor -= 1
      text.remove(at: cursor)
    case .delete:
      if cursor < text.count { text.remove(at: cursor) }
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(text.count, cursor + 1)
    case .home: cursor = 0
    case .end: cursor = text.count
    case .wordLeft: cursor = startOfWord(before: cursor)
    case .wordRight: cursor = endOfWord(after: cursor)
    case .up: walkHistory(by: -1)
    case .down: walkHistory(by: 1)
    case .deleteWord:
      let start = startOfWord(before: cursor)
      text.removeSubrange(start..<cursor)
      cursor = start
    case .deleteToEnd:
      text.removeSubrange(cursor...)
    case .deleteToStart:
      text.removeSubrange(..<cursor)
      cursor = 0
    case .interrupt:
      return .interrupted(hadText: !text.isEmpty)
    case .endOfInput:
      if text.isEmpty { return .endOfInput }
      if cursor < text.count { text.remove(at: cursor) }
    case .clearScreen:
      return .clearScreenRequested
    case .ignored:
      break
    }
    return .editing
  }

  /// Replaces the `count` characters before the cursor with `replacement` (a completion).
  package mutating func replace(charactersBeforeCursor count: Int, with replacement: String) {
    let start = max(0, cursor - count)
    text.replaceSubrange(start..<cursor, with: Array(replacement))
    cursor = start + replacement.count
  }

  /// The prompt and the part of the line that fits in `width` columns, and the cursor's column
  /// in it. A line wider than the terminal scrolls sideways to keep the cursor in view. With
  /// `echo` off (a password) only the prompt shows.
  package func display(prompt: String, width: Int, echo: Bool = true) -> (text: String, column: Int) {
    guard echo else { return (prompt, prompt.count) }
    let room = max(1, width - prompt.count - 1)
    let start = cursor > room ? cursor - room : 0
    let end = min(text.count, start + room)
    return (prompt + String(text[start..<end]), prompt.count + cursor - start)
  }

  private mutating func walkHistory(by step: Int) {
    let target = historyIndex + step
    guard target >= 0, target <= history.count else { return }
    if historyIndex == history.count { draft = text }
    historyIndex = target
    text = target == history.count ? draft : Array(history[target])
    cursor = text.count
  }

  private func startOfWord(before index: Int) -> Int {
    var index = index
    while index > 0, text[index - 1] == " " { index -= 1 }
    while index > 0, text[index - 1] != " " { index -= 1 }
    return index
  }

  private func endOfWord(after index: Int) -> Int {
    var index = index
    while index < text.count, text[index] == " " { index += 1 }
    while index < text.count, text[index] != " " { index += 1 }
    return index
  }
}
