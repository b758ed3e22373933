import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// The testing article's examples: tests of app sign-in code that never sleep.
@Suite(.timeLimit(.minutes(3)))
struct TestingExamplesTests {
  // snippet.begin offline-launch-test
  @Test func anOfflineLaunchKeepsTheUserSignedIn() async throws {
    let clock = ManualClock()
    let backend = ScriptedBackend(now: { clock.date })
    let store = InMemorySessionStore()
    // The previous launch signed in; its ID token has expired since.
    let previous = Auth(backend: backend, store: store, clock: clock, now: { clock.date })
    let user = try await previous.signUp(email: "ada@example.com", password: "correct horse").user
    await previous.shutdown()
    clock.advance(by: .seconds(2 * 3600))

    // This launch is offline: the refresh fails as a dropped connection would.
    backend.script(.refresh, .fail(AuthError(.network, "The network connection was lost.")))
    let auth = Auth(backend: backend, store: store, clock: clock, now: { clock.date })
    #expect(try await auth.restorePreviousSignIn() == user)
    #expect(auth.currentState == .signedIn(user, .stale))
    await auth.shutdown()
  }
  // snippet.end

  // snippet.begin restore-deadline-test
  @Test func aSlowNetworkCannotHoldTheFirstScreenPastTheDeadline() async throws {
    let clock = ManualClock()
    let backendClock = ManualClock()
    let backend = ScriptedBackend(clock: backendClock, now: { clock.date })
    let store = InMemorySessionStore()
    let previous = Auth(backend: backend, store: store, clock: clock, now: { clock.date })
    let user = try await previous.signUp(email: "ada@example.com", password: "correct horse").user
    await previous.shutdown()
    clock.advance(by: .seconds(2 * 3600))

    backend.script(.refresh, .delay(.seconds(60)))  // a reply that takes a minute
    let auth = Auth(
      backend: backend, store: store, clock: clock,
      configuration: AuthConfiguration(restoreDeadline: .seconds(3)), now: { clock.date })
    let restore = Task { try await auth.restorePreviousSignIn() }
    await clock.sleepers(atLeast: 1)  // the restore waits for its deadline
    clock.advance(by: .seconds(3))
    #expect(try await restore.value == user)
    #expect(auth.currentState == .signedIn(user, .stale))
    await auth.shutdown()
  }
  // snippet.end
}
