/// Runs commands without a person at the keyboard: a `-c` script, or lines from a pipe or
/// file. Commands run one after another; a failed command does not stop the ones after it.
///
/// - Concurrency: `Sendable` value; ``run(script:)`` and ``run(lines:)`` run on the caller's task.
package struct ScriptLoop: Sendable {
  let session: REPLSession
  let renderer: Renderer

  package init(session: REPLSession, renderer: Renderer) {
    self.session = session
    self.renderer = renderer
  }

  /// Runs `script`, commands separated by `;`, up to `quit`.
  package func run(script: String) async -> ExitStatus {
    var status = ExitStatus()
    _ = await runLine(script, status: &status)
    return status
  }

  /// Runs every line `input` gives, up to end of input or `quit`. A command that asks for a
  /// password or an account takes the next line.
  package func run(lines input: PipeInput) async -> ExitStatus {
    var status = ExitStatus()
    while let line = await input.line(), await runLine(line, status: &status) {}
    return status
  }

  /// Runs one line's commands; `false` when it said `quit`.
  private func runLine(_ line: String, status: inout ExitStatus) async -> Bool {
    guard let commands = await parseReportingMisuse(line, renderer: renderer, status: &status) else { return true }
    for command in commands {
      if command is QuitCommand { return false }
      // The command's final state has reached the renderer when this returns.
      status.record(succeeded: await session.run(command))
    }
    return true
  }
}
