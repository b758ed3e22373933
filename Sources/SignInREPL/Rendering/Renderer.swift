import Foundation
import SignInKit

/// The one place the REPL writes to the terminal: command results, errors, and the state
/// changes and events it is watching. Lines are plain words, or JSON objects with `--json`.
///
/// By default (``Watching/elsewhere``) a state or event is printed only when no command is
/// running: what happens by itself (a proactive refresh, another process on the same data
/// folder signing in or out). A command says its own result in one line, and at a terminal the
/// spinner shows that it works; `watch on` prints every change, the commands' too, and `--json`
/// and `--watch` do from the start.
///
/// At a terminal the bottom line is "live": the prompt being typed at, or a spinner while a
/// command is in flight. A line that arrives meanwhile (a state change from the stream, say) is
/// printed above it and the live line is drawn again, so what the user is typing is never
/// garbled or lost.
///
/// - Concurrency: `@UIStateActor`; every line is written in the actor's order.
@UIStateActor package final class Renderer {
  package let json: Bool
  package let style: TextStyle
  /// Which state changes and events are printed.
  package enum Watching: Sendable {
    /// None.
    case off
    /// Those that come while no command runs.
    case elsewhere
    /// All of them.
    case everything
  }

  package var watching: Watching
  /// Commands in flight (``commandStarted()``): their state changes are theirs to report.
  private var commandsRunning = 0
  /// Whether the signed-in user's changes (``Auth/users``) are printed; off by default.
  package var isWatchingUsers = false
  private var lastState: AuthState?
  /// The settled state a sign-in in flight started from: shown again when the sign-in fails,
  /// which the error line already says, so people do not read it twice.
  private var stateBeforeSignIn: AuthState?
  private let output: @Sendable (String) -> Void
  private let clock: any Clock<Duration>

  /// What the bottom line shows now.
  private enum Live {
    case prompt(text: String, column: Int)
    case spinner(frame: Int)
  }

  private var live: Live?
  private var spinnerTask: Task<Void, Never>?
  /// Callers of ``waitUntilShowing(_:)``, resumed at the next state shown.
  private var stateWaiters: [CheckedContinuation<Void, Never>] = []
  static let spinnerFrames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

  /// - Parameters:
  ///   - style: colour, for a terminal; JSON output is never coloured.
  ///   - clock: paces the spinner.
  ///   - output: where text goes (standard output unless a test captures it).
  package nonisolated init(
    json: Bool, style: TextStyle = .plain, clock: any Clock<Duration> = ContinuousClock(),
    output: @escaping @Sendable (String) -> Void = StandardOutput.write
  ) {
    self.json = json
    watching = json ? .everything : .elsewhere
    self.style = json ? .plain : style
    self.clock = clock
    self.output = output
  }

  /// A command's result line.
  package func say(_ text: String, fields: [String: String] = [:]) {
    if json {
      var object = fields
      object["type"] = "result"
      object["text"] = text
      write(TranscriptFormatter.encode(object))
    } else {
      write(text, keepingLineBreaks: true)
    }
  }

  /// A failed command's error.
  package func show(_ error: AuthError) {
    write(json ? TranscriptFormatter.json(for: error) : TranscriptFormatter.line(for: error), styled: style.error)
  }

  /// A usage problem (unknown command, wrong arguments).
  package func show(_ error: CommandError) {
    write(
      json
        ? TranscriptFormatter.encode(["type": "error", "code": "usage", "message": error.description])
        : error.description, styled: style.error)
  }

  /// A state from the stream, when watching; an unchanged state is not repeated.
  package func show(_ state: AuthState) {
    defer {
      lastState = state
      let waiters = stateWaiters
      stateWaiters = []
      for waiter in waiters { waiter.resume() }
    }
    guard showsChanges, state != lastState else { return }
    let returning = state == stateBeforeSignIn
    if case .signingIn = state {
      if case .signingIn = lastState {} else { stateBeforeSignIn = lastState }
    } else {
      stateBeforeSignIn = nil
    }
    // A sign-in that failed, or waits for a second factor, goes back to where it was: the
    // words would only repeat the line above the `signing in…` one. Programs (--json) get it.
    if returning, !json { return }
    write(json ? TranscriptFormatter.json(for: state) : "• " + TranscriptFormatter.line(for: state), styled: style.live)
  }

  /// Shows every state of `states` as it comes, until the stream ends.
  package func show(_ states: AsyncStream<AuthState>) async {
    for await state in states { show(state) }
  }

  /// Shows every value of `users` as it comes (when watching users), until the stream ends.
  package func show(_ users: AsyncStream<User?>) async {
    for await user in users { show(user: user) }
  }

  /// The signed-in user after a change of identity or profile, when watching users.
  package func show(user: User?) {
    guard isWatchingUsers else { return }
    if json {
      write(TranscriptFormatter.json(forUser: user), styled: style.live)
    } else {
      write("• user: " + (user.map(TranscriptFormatter.who) ?? "none"), styled: style.live)
    }
  }

  /// Shows every event of `events` as it comes, until the stream ends.
  package func show(_ events: AsyncStream<AuthEvent>) async {
    for await event in events { show(event) }
  }

  /// An event from the stream, when watching and worth a line.
  package func show(_ event: AuthEvent) {
    guard showsChanges, !json, let line = TranscriptFormatter.line(for: event) else { return }
    if case .failed = event { return }  // the command that failed reports it
    if case .signedIn = event { return }  // the state line says it
    write("• " + line, styled: style.live)
  }

  /// Returns once the last state shown from the stream is `current()` (read again after every
  /// state shown). A script calls it after each command, so the command's final state is on
  /// screen before the next command runs: the stream conflates a slow subscriber to the newest
  /// state, and on a busy machine a sign-out followed at once by a sign-in was never shown.
  ///
  /// - Important: the states stream must be feeding ``show(_:)``, or this waits for ever.
  package func waitUntilShowing(_ current: @UIStateActor () -> AuthState) async {
    while lastState != current() {
      await withCheckedContinuation { stateWaiters.append($0) }
    }
  }

  // MARK: - The live line

  /// Draws the prompt line being edited, with the cursor at `column`.
  package func showPrompt(_ text: String, column: Int) {
    live = .prompt(text: text, column: column)
    draw()
  }

  /// Ends the prompt line: the cursor goes to a new line and the line stays as typed.
  package func endPrompt() {
    guard case .prompt(let text, _) = live else { return }
    live = nil
    output("\r" + text + "\u{1B}[K\n")
  }

  /// Clears the screen and draws the live line at the top.
  package func clearScreen() {
    output("\u{1B}[H\u{1B}[2J")
    draw()
  }

  /// Shows a spinner on the bottom line until ``endActivity()``; it gives way to any prompt
  /// the command shows (a password, say) and comes back after it.
  package func beginActivity() {
    spinnerTask?.cancel()
    // A terminal that cannot redraw a line (TERM=dumb) would show every frame.
    guard style.animates else { return }
    let clock = clock
    spinnerTask = Task { @UIStateActor [weak self] in
      var frame = 0
      while !Task.isCancelled {
        do { try await clock.sleep(for: .milliseconds(100)) } catch { return }
        guard let self, !Task.isCancelled else { return }
        frame += 1
        self.tick(frame)
      }
    }
  }

  /// Removes the spinner.
  package func endActivity() {
    spinnerTask?.cancel()
    spinnerTask = nil
    if case .spinner = live {
      live = nil
      output("\r\u{1B}[K")
    }
  }

  private func tick(_ frame: Int) {
    switch live {
    case .prompt: return
    case .spinner, nil:
      live = .spinner(frame: frame)
      draw()
    }
  }

  private func draw() {
    switch live {
    case .prompt(let text, let column):
      // Carriage return, the line, clear what is left of the old one, then place the cursor.
      output("\r" + text + "\u{1B}[K\r" + (column > 0 ? "\u{1B}[\(column)C" : ""))
    case .spinner(let frame):
      let character = Self.spinnerFrames[frame % Self.spinnerFrames.count]
      output("\r" + style.live("\(character) working… (Ctrl-C cancels)") + "\u{1B}[K")
    case nil:
      break
    }
  }

  /// Writes one line above the live line. Control characters in it (text from servers and
  /// redirects: an `error_description`, a display name) are removed first, so nothing but the
  /// style applied afterwards can move the cursor, retitle or recolour the terminal.
  private func write(_ text: String, keepingLineBreaks: Bool = false, styled: (String) -> String = { $0 }) {
    let line =
      json
      ? text.removingControlCharacters() : styled(text.removingControlCharacters(keepingLineBreaks: keepingLineBreaks))
    guard live != nil else { return output(line + "\n") }
    output("\r\u{1B}[K" + line + "\n")
    draw()
  }
}
extension Renderer {
  /// Whether a state change or event that comes now is printed.
  private var showsChanges: Bool {
    switch watching {
    case .off: false
    case .elsewhere: commandsRunning == 0
    case .everything: true
    }
  }

  /// A command starts: until ``commandEnded()``, the changes it makes are its own to report.
  package func commandStarted() { commandsRunning += 1 }

  /// A command ended, and the states it caused have been shown (or not) already.
  package func commandEnded() { commandsRunning -= 1 }

  func setWatching(_ on: Bool) { watching = on ? .everything : .off }
  func setWatchingUsers(_ on: Bool) { isWatchingUsers = on }
}
