import SignInKit

/// Input from a person at a terminal in raw mode: the prompt's line editor (cursor keys,
/// Home/End, delete word, history on up/down, Tab completion), password prompts without echo,
/// and Ctrl-C. Everything it draws goes through the ``Renderer``, so lines from the state
/// streams never garble what is being typed.
///
/// - Concurrency: `@UIStateActor`; one read at a time (the REPL's loop, or the running command).
@UIStateActor package final class TerminalInput: InputSource {
  /// What reading a command line ended with.
  package enum CommandLine: Sendable, Equatable {
    case line(String)
    /// Ctrl-C; `hadText` says whether a half-typed line was abandoned.
    case interrupted(hadText: Bool)
    case endOfInput
  }

  package nonisolated let isTerminal = true
  package private(set) var history: CommandHistory
  private let keyboard: KeyboardInput
  private let renderer: Renderer
  private let columns: @Sendable () -> Int
  private let knownEmails: @Sendable () async -> [String]
  private var decoder = KeyDecoder()

  /// - Parameters:
  ///   - columns: the terminal's current width.
  ///   - knownEmails: emails Tab completes after `signin`, `mailbox` and the like.
  package nonisolated init(
    keyboard: KeyboardInput, renderer: Renderer, history: CommandHistory,
    columns: @escaping @Sendable () -> Int,
    knownEmails: @escaping @Sendable () async -> [String] = { [] }
  ) {
    self.keyboard = keyboard
    self.renderer = renderer
    self.history = history
    self.columns = columns
    self.knownEmails = knownEmails
  }

  /// Reads a command line at `prompt` with history and completion.
  package func commandLine(prompt: String) async -> CommandLine {
    await edit(prompt: prompt, echo: true, useHistory: true)
  }

  /// Keeps `line` in the history (the REPL calls it for lines that parsed as commands).
  package func remember(_ line: String) {
    history.add(line)
  }

  package func line(prompt: String) async -> String? {
    guard case .line(let line) = await edit(prompt: prompt, echo: true, useHistory: false) else { return nil }
    return line
  }

  package func secret(prompt: String) async -> String? {
    guard case .line(let line) = await edit(prompt: prompt, echo: false, useHistory: false) else { return nil }
    return line
  }

  private func edit(prompt: String, echo: Bool, useHistory: Bool) async -> CommandLine {
    var editor = LineEditor(history: useHistory ? history.lines : [])
    draw(editor, prompt: prompt, echo: echo)
    defer { renderer.endPrompt() }
    while let key = await nextKey() {
      switch editor.apply(key) {
      case .editing:
        break
      case .submitted(let line):
        return .line(line)
      case .endOfInput:
        return .endOfInput
      case .interrupted(let hadText):
        draw(editor, prompt: prompt, echo: echo, suffix: "^C")
        return .interrupted(hadText: hadText)
      case .clearScreenRequested:
        renderer.clearScreen()
      case .completionRequested:
        guard useHistory else { break }
        let completion = CommandCompleter.complete(editor.textBeforeCursor, knownEmails: await knownEmails())
        if completion.replacement != completion.word {
          editor.replace(charactersBeforeCursor: completion.word.count, with: completion.replacement)
        } else if completion.candidates.count > 1 {
          renderer.say(completion.candidates.joined(separator: "  "))
        }
      }
      draw(editor, prompt: prompt, echo: echo)
    }
    return .endOfInput
  }

  /// The next whole key, or `nil` at end of input or on cancellation.
  private func nextKey() async -> Key? {
    while let byte = await keyboard.next() {
      if let key = decoder.feed(byte) { return key }
    }
    return nil
  }

  private func draw(_ editor: LineEditor, prompt: String, echo: Bool, suffix: String = "") {
    let shown = editor.display(prompt: prompt, width: columns(), echo: echo)
    let typed = String(shown.text.dropFirst(prompt.count))
    renderer.showPrompt(renderer.style.prompt(prompt) + typed + suffix, column: shown.column)
  }
}
