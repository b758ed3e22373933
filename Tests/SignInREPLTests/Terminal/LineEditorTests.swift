import Testing

@testable import SignInREPL

@Suite struct LineEditorTests {
  static func type(_ text: String, into editor: inout LineEditor) {
    for character in text { _ = editor.apply(.character(character)) }
  }

  @Test func insertsAtTheCursorAndMovesWithArrowsHomeAndEnd() {
    var editor = LineEditor()
    Self.type("hoami", into: &editor)
    _ = editor.apply(.home)
    Self.type("w", into: &editor)
    _ = editor.apply(.end)
    _ = editor.apply(.left)
    _ = editor.apply(.backspace)
    _ = editor.apply(.right)
    #expect(String(editor.text) == "whoai")
    #expect(editor.cursor == 5)
    #expect(editor.apply(.enter) == .submitted("whoai"))
  }

  @Test func deletesWordsAndToEitherEnd() {
    var editor = LineEditor()
    Self.type("link email ada@example.com", into: &editor)
    _ = editor.apply(.deleteWord)
    #expect(String(editor.text) == "link email ")
    _ = editor.apply(.deleteWord)
    #expect(String(editor.text) == "link ")
    _ = editor.apply(.wordLeft)
    #expect(editor.cursor == 0)
    _ = editor.apply(.deleteToEnd)
    #expect(editor.text.isEmpty)
    Self.type("abc def", into: &editor)
    _ = editor.apply(.wordLeft)
    _ = editor.apply(.deleteToStart)
    #expect(String(editor.text) == "def")
    #expect(editor.cursor == 0)
  }

  @Test func walksHistoryAndKeepsTheLineBeingTyped() {
    var editor = LineEditor(history: ["anonymous", "whoami"])
    Self.type("sig", into: &editor)
    _ = editor.apply(.up)
    #expect(String(editor.text) == "whoami")
    _ = editor.apply(.up)
    _ = editor.apply(.up)
    #expect(String(editor.text) == "anonymous")
    _ = editor.apply(.down)
    _ = editor.apply(.down)
    #expect(String(editor.text) == "sig")
    #expect(editor.cursor == 3)
  }

  @Test func controlDEndsInputOnlyOnAnEmptyLine() {
    var editor = LineEditor()
    #expect(editor.apply(.endOfInput) == .endOfInput)
    Self.type("ab", into: &editor)
    _ = editor.apply(.home)
    #expect(editor.apply(.endOfInput) == .editing)
    #expect(String(editor.text) == "b")
  }

  @Test func controlCSaysWhetherALineWasAbandoned() {
    var editor = LineEditor()
    #expect(editor.apply(.interrupt) == .interrupted(hadText: false))
    Self.type("x", into: &editor)
    #expect(editor.apply(.interrupt) == .interrupted(hadText: true))
  }

  @Test func aLineWiderThanTheTerminalScrollsToKeepTheCursorInView() {
    var editor = LineEditor()
    Self.type(String(repeating: "a", count: 30) + "XYZ", into: &editor)
    let shown = editor.display(prompt: "> ", width: 20)
    #expect(shown.text.count <= 20)
    #expect(shown.text.hasSuffix("XYZ"))
    #expect(shown.column == shown.text.count)
    _ = editor.apply(.home)
    #expect(editor.display(prompt: "> ", width: 20) == ("> " + String(repeating: "a", count: 17), 2))
  }

  @Test func aSecretShowsOnlyThePrompt() {
    var editor = LineEditor()
    Self.type("hunter2", into: &editor)
    #expect(editor.display(prompt: "Password: ", width: 80, echo: false) == ("Password: ", 10))
  }
}
