import SignInConcurrency
import SignInKit

/// The interactive REPL at a terminal: reads a command line with the editor, runs each command
/// as its own task with a spinner, and lets Ctrl-C cancel it. At the prompt, Ctrl-C abandons
/// the line being typed; a second Ctrl-C at an empty prompt leaves, as does Ctrl-D or `quit`.
/// Leaving is a success (status 0) whatever the commands did: each said how it ended, and a
/// person who tried a wrong password an hour ago did not make the session fail.
///
/// - Concurrency: `Sendable` value; ``run()`` runs on the caller's task and each command in a
///   child task it cancels on Ctrl-C.
package struct TerminalLoop: Sendable {
  package static let prompt = "signin> "
  let session: REPLSession
  let renderer: Renderer
  let input: TerminalInput
  let keyboard: KeyboardInput

  package init(session: REPLSession, renderer: Renderer, input: TerminalInput, keyboard: KeyboardInput) {
    self.session = session
    self.renderer = renderer
    self.input = input
    self.keyboard = keyboard
  }

  package func run() async -> ExitStatus {
    // Misuse is shown as it is typed; the process's status does not keep it.
    var typed = ExitStatus()
    var interruptedAtEmptyPrompt = false
    while true {
      switch await input.commandLine(prompt: Self.prompt) {
      case .endOfInput:
        return ExitStatus()
      case .interrupted(let hadText):
        if hadText {
          interruptedAtEmptyPrompt = false
        } else if interruptedAtEmptyPrompt {
          return ExitStatus()
        } else {
          interruptedAtEmptyPrompt = true
          await renderer.say("(press Ctrl-C again to leave, or type 'quit')")
        }
      case .line(let line):
        interruptedAtEmptyPrompt = false
        guard let commands = await parseReportingMisuse(line, renderer: renderer, status: &typed) else { continue }
        if !commands.isEmpty, !commands.contains(where: \.carriesSecret) { await input.remember(line) }
        for command in commands {
          if command is QuitCommand { return ExitStatus() }
          let (_, cancelled) = await runCancellable(command)
          if cancelled { break }  // the rest of the line is abandoned with it
        }
      }
    }
  }

  /// Runs `command` in a task that Ctrl-C cancels; says whether it succeeded and whether it was
  /// cancelled.
  ///
  /// The Ctrl-C handler is in place before the command's task exists, so a Ctrl-C can never fall
  /// between the command starting and the handler being set (it used to reach the line editor
  /// instead, on a busy machine, and the command ran on). One pressed before the task exists
  /// cancels it as soon as it does.
  ///
  /// A Ctrl-C that arrives as the command is finishing (its output is on screen, its task has
  /// not returned yet) cancels nothing: it is handed to the line editor, as if typed at the
  /// prompt, so it abandons the line being typed there as a person expects.
  private func runCancellable(_ command: any REPLCommand) async -> (Bool, Bool) {
    let session = session
    let pending = Locked<(interrupted: Bool, task: Task<Bool, Never>?)>((false, nil))
    keyboard.setInterruptHandler {
      pending.withLock { pending in
        pending.interrupted = true
        return pending.task
      }?.cancel()
    }
    let task = Task { await session.run(command) }
    if pending.withLock({ pending in
      pending.task = task
      return pending.interrupted
    }) {
      task.cancel()
    }
    await renderer.beginActivity()
    let succeeded = await task.value
    keyboard.setInterruptHandler(nil)
    let interrupted = pending.withLock { $0.interrupted }
    if interrupted, succeeded { keyboard.push([0x03]) }
    await renderer.endActivity()
    return (succeeded, interrupted && !succeeded)
  }
}
