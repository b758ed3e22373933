import SignInConcurrency
import SignInKit
import SignInKitTesting
import Testing

@testable import SignInREPL

@Suite(.timeLimit(.minutes(3))) struct RendererTests {
  /// Everything the renderer wrote, in order.
  final class Screen: Sendable {
    let written = Locked("")
    var text: String { written.withLock { $0 } }
    func write(_ text: String) { written.withLock { $0 += text } }
  }

  @Test @UIStateActor func aLineArrivingWhileTypingIsPrintedAboveAndThePromptRedrawn() {
    let screen = Screen()
    let renderer = Renderer(json: false, output: screen.write)
    renderer.showPrompt("signin> who", column: 11)
    renderer.show(AuthState.signedOut(.userRequested))
    #expect(screen.text.hasSuffix("\r\u{1B}[K• signed out (you signed out)\n\rsignin> who\u{1B}[K\r\u{1B}[11C"))
    renderer.endPrompt()
    renderer.say("done")
    #expect(screen.text.hasSuffix("\rsignin> who\u{1B}[K\ndone\n"))
  }

  /// A sign-in that waits for a second factor (or fails) goes back to the state it started
  /// from; the transcript does not say it twice, and then asks for the code.
  @Test @UIStateActor func aSignInThatGoesBackIsNotShownAsASecondSignOut() {
    let screen = Screen()
    let renderer = Renderer(json: false, output: screen.write)
    renderer.show(AuthState.signedOut(.userRequested))
    renderer.show(AuthState.signingIn(.password))
    renderer.show(AuthState.signedOut(.userRequested))
    renderer.show(AuthState.signingIn(.password))
    let user = User(uid: "u1", email: "ada@example.com")
    renderer.show(AuthState.signedIn(user, .fresh))
    #expect(
      screen.text
        == "• signed out (you signed out)\n• signing in with email and password…\n"
        + "• signing in with email and password…\n• signed in as ada@example.com (u1)\n")
    let programs = Screen()
    let json = Renderer(json: true, output: programs.write)
    for state in [AuthState.signedOut(.userRequested), .signingIn(.password), .signedOut(.userRequested)] {
      json.show(state)
    }
    #expect(programs.text.split(separator: "\n").count == 3, "programs see every state")
  }

  @Test @UIStateActor func withoutALiveLineOutputIsPlainLines() {
    let screen = Screen()
    let renderer = Renderer(json: false, output: screen.write)
    renderer.say("one")
    renderer.show(AuthError(.wrongPassword, "The password is wrong."))
    #expect(screen.text == "one\nerror (wrong-password): The password is wrong.\n")
  }

  @Test @UIStateActor func textFromServersCannotSteerTheTerminal() {
    let hostile = "Ada\u{1B}]0;pwned\u{07}\u{9B}2J\u{202E}nimda"
    for json in [false, true] {
      let screen = Screen()
      let renderer = Renderer(json: json, style: TextStyle(isColoured: true), output: screen.write)
      renderer.show(AuthState.signedIn(User(uid: "u", displayName: hostile), .fresh))
      var error = AuthError(.internal, "x")
      error.message = "The identity provider answered: \(hostile)"
      renderer.show(error)
      renderer.say("name: \(hostile)", fields: ["name": hostile])
      let text = screen.text
      #expect(!text.contains("\u{1B}]"), "json: \(json)")
      #expect(!text.contains("\u{07}"))
      #expect(!text.contains("\u{9B}"))
      #expect(!text.contains("\u{202E}"))
      // JSON keeps the data, escaped (\u001b is six printable characters); text drops it.
      #expect(text.contains(json ? #"Ada\u001b]0;pwned"# : "Ada]0;pwned"))
    }
  }

  @Test @UIStateActor func colourIsUsedOnlyWhenAskedAndNeverInJSON() {
    let screen = Screen()
    Renderer(json: false, style: TextStyle(isColoured: true), output: screen.write)
      .show(AuthError(.wrongPassword, "x"))
    #expect(screen.text.hasPrefix("\u{1B}[31m"))
    let json = Screen()
    Renderer(json: true, style: TextStyle(isColoured: true), output: json.write)
      .show(AuthError(.wrongPassword, "x"))
    #expect(!json.text.contains("\u{1B}"))
    #expect(!TextStyle.forStandardOutput(environment: ["NO_COLOR": "1"]).isColoured)
  }

  @Test func theSpinnerTurnsWhileACommandRunsAndGivesWayToAPrompt() async {
    let screen = Screen()
    let clock = ManualClock()
    let renderer = Renderer(json: false, clock: clock, output: screen.write)
    await renderer.beginActivity()
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .milliseconds(100))
    await clock.sleepers(atLeast: 1)
    #expect(screen.text.contains("working… (Ctrl-C cancels)"))
    await renderer.showPrompt("Password: ", column: 10)
    let before = screen.text
    clock.advance(by: .milliseconds(100))
    await clock.sleepers(atLeast: 1)
    #expect(screen.text == before + "")
    await renderer.endPrompt()
    await renderer.endActivity()
    #expect(screen.text.hasSuffix("\rPassword: \u{1B}[K\n"))
  }
}
