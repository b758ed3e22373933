/// One key press at the line editor, decoded from the bytes a terminal sends.
///
/// - Concurrency: `Sendable` value.
package enum Key: Sendable, Equatable {
  case character(Character)
  case enter
  case tab
  /// Backspace or Ctrl-H: delete the character before the cursor.
  case backspace
  /// Delete or Ctrl-D on a non-empty line: delete the character under the cursor.
  case delete
  case left, right, home, end, up, down
  case wordLeft, wordRight
  /// Ctrl-W or Alt-Backspace: delete the word before the cursor.
  case deleteWord
  /// Ctrl-K: delete to the end of the line.
  case deleteToEnd
  /// Ctrl-U: delete to the start of the line.
  case deleteToStart
  /// Ctrl-C.
  case interrupt
  /// Ctrl-D.
  case endOfInput
  /// Ctrl-L.
  case clearScreen
  /// A sequence the editor does not use.
  case ignored
}
