/// How a run of commands ended, as the process's exit status: 0 when every command succeeded,
/// 1 when one failed, 2 when one was misused (unknown command, wrong arguments).
///
/// - Concurrency: `Sendable` value.
package struct ExitStatus: Sendable, Equatable {
  package private(set) var anyFailed = false
  package private(set) var anyMisused = false

  package init() {}

  package var code: Int32 { anyMisused ? 2 : anyFailed ? 1 : 0 }

  mutating func record(succeeded: Bool) { if !succeeded { anyFailed = true } }
  mutating func recordMisuse() { anyMisused = true }
}

/// The commands of `line`; a usage error is shown, recorded in `status`, and gives `nil`.
func parseReportingMisuse(_ line: String, renderer: Renderer, status: inout ExitStatus) async -> [any REPLCommand]? {
  do {
    return try CommandParser.parse(line: line)
  } catch {
    await renderer.show(error)
    status.recordMisuse()
    return nil
  }
}
