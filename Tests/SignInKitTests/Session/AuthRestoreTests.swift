import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(3)))
struct AuthRestoreTests {
  /// A store holding a session whose ID token expires `secondsLeft` after the harness clock's
  /// start, made by signing up through a first `Auth` that is then shut down (a previous launch).
  static func previousLaunch(secondsLeft: Double) async throws -> (Harness, User) {
    let first = Harness()
    let result = try await first.signUp()
    await first.auth.shutdown()
    var stored = try #require(try first.store.load())
    stored.expiresAt = first.clock.date.addingTimeInterval(secondsLeft)
    try first.store.save(stored)
    return (first, result.user)
  }

  /// A second launch: a new `Auth` over the same store and backend accounts.
  static func relaunch(_ previous: Harness, configuration: AuthConfiguration = .init()) -> Auth {
    Auth(
      backend: previous.backend, store: previous.store, clock: previous.clock,
      configuration: configuration, now: { previous.clock.date })
  }

  @Test func hasPreviousSignInOnlyReadsTheStore() async throws {
    let (previous, _) = try await Self.previousLaunch(secondsLeft: 3600)
    let auth = Self.relaunch(previous)
    let callsBefore = previous.backend.calls.count
    #expect(await auth.hasPreviousSignIn())
    #expect(previous.backend.calls.count == callsBefore)
    #expect(await UIStateActor.run { auth.stateStore.state } == .restoring)
    #expect(await Harness().auth.hasPreviousSignIn() == false)
  }

  @Test func restoreWithTimeLeftPublishesSignedInFreshWithoutNetwork() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 301)
    let auth = Self.relaunch(previous)
    let states = Recorder.start(auth.states)
    let events = Recorder.start(auth.events)
    let callsBefore = previous.backend.calls.count
    let restored = try await auth.restorePreviousSignIn()
    #expect(restored == user)
    #expect(previous.backend.calls.count == callsBefore)
    await states.wait(for: .signedIn(user, .fresh))
    #expect(states.values.isSubsequence(of: [.restoring, .signedIn(user, .fresh)]))
    await events.wait(for: .initialState(.signedIn(user, .fresh)))
  }

  @Test func sharedRestoreAndRefreshRunOnTheConfiguredTaskExecutor() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 299)
    let executor = CountingTaskExecutor()
    let auth = Self.relaunch(
      previous, configuration: AuthConfiguration(refreshesAutomatically: false, taskExecutor: executor))
    #expect(executor.jobs == 0)
    #expect(try await auth.restorePreviousSignIn() == user)
    #expect(previous.backend.count(of: .refresh) == 1)
    // The caller's task has no preference: only the shared restore's task can have run there.
    #expect(executor.jobs > 0)
  }

  @Test func restoreWithExpiringTokenRefreshesFirst() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 299)
    let auth = Self.relaunch(previous)
    let states = Recorder.start(auth.states)
    let restored = try await auth.restorePreviousSignIn()
    #expect(restored == user)
    #expect(previous.backend.count(of: .refresh) == 1)
    await states.wait(for: .signedIn(user, .fresh))
    #expect(states.values.isSubsequence(of: [.restoring, .signedIn(user, .fresh)]))
    #expect(try previous.store.load()?.expiresAt == previous.clock.date.addingTimeInterval(3600))
  }

  @Test func restoreWithNetworkDownStaysSignedInStale() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: -60)
    previous.backend.setOutage(.refresh, AuthError(.network, "offline"))
    let auth = Self.relaunch(previous)
    let restored = try await auth.restorePreviousSignIn()
    #expect(restored == user)
    #expect(await UIStateActor.run { auth.stateStore.state } == .signedIn(user, .stale))
    #expect(try previous.store.load()?.user == user)
    // A retry is scheduled with backoff.
    await previous.clock.sleepers(atLeast: 1)
  }

  @Test func restorePastItsDeadlineSettlesOnStale() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 0)
    previous.backend.script(.refresh, .delay(.seconds(60)))
    let auth = Self.relaunch(previous)
    let restore = startTask { try await auth.restorePreviousSignIn() }
    await previous.backendClock.sleepers(atLeast: 1)
    await previous.clock.sleepers(atLeast: 1)  // the 10 s deadline
    previous.clock.advance(by: .seconds(10))
    #expect(try await restore.value == user)
    #expect(await UIStateActor.run { auth.stateStore.state } == .signedIn(user, .stale))
    #expect(previous.backendClock.sleeperCount == 0)  // the slow refresh was cancelled
  }

  @Test func restoreWithTerminalErrorSignsOutAndClearsTheStore() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 0)
    try await previous.backend.revokeTokens(uid: user.uid)
    let auth = Self.relaunch(previous)
    let events = Recorder.start(auth.events)
    let restored = try await auth.restorePreviousSignIn()
    #expect(restored == nil)
    let expected = AuthState.signedOut(.refreshRejected(.invalidRefreshToken))
    #expect(await UIStateActor.run { auth.stateStore.state } == expected)
    #expect(try previous.store.load() == nil)
    await events.wait(for: .initialState(expected))
  }

  @Test func restoreWithNothingStoredEndsSignedOut() async throws {
    let harness = Harness()
    let states = Recorder.start(harness.auth.states)
    #expect(try await harness.auth.restorePreviousSignIn() == nil)
    await states.wait(for: .signedOut(.initial))
    #expect(states.values.isSubsequence(of: [.restoring, .signedOut(.initial)]))
  }

  @Test func concurrentRestoresShareOneRestore() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 0)
    previous.backend.script(.refresh, .delay(.seconds(1)))
    let auth = Self.relaunch(previous)
    let restores = (0..<20).map { _ in startTask { try await auth.restorePreviousSignIn() } }
    await auth.restoreFlight.waiters(atLeast: 20)
    await previous.backendClock.sleepers(atLeast: 1)
    previous.backendClock.advance(by: .seconds(1))
    for restore in restores { #expect(try await restore.value == user) }
    #expect(previous.backend.count(of: .refresh) == 1)
  }

  @Test func secondRestoreAfterTheFirstReturnsAtOnce() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 0)
    let auth = Self.relaunch(previous)
    #expect(try await auth.restorePreviousSignIn() == user)
    let calls = previous.backend.calls.count
    #expect(try await auth.restorePreviousSignIn() == user)
    #expect(previous.backend.calls.count == calls)
  }

  @Test func cancelledRestoreStillEndsInADefiniteState() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 0)
    previous.backend.script(.refresh, .delay(.seconds(60)))
    let auth = Self.relaunch(previous)
    let states = Recorder.start(auth.states)
    let restore = startTask { try await auth.restorePreviousSignIn() }
    await previous.backendClock.sleepers(atLeast: 1)
    restore.cancel()
    await #expect(throws: AuthError.self) { try await restore.value }
    await states.wait { $0.last != .restoring }
    #expect(await UIStateActor.run { auth.stateStore.state } == .signedIn(user, .stale))
    // A second call does not hang on the cancelled one.
    #expect(try await auth.restorePreviousSignIn() == user)
  }

  @Test func signInDuringRestoreWins() async throws {
    let (previous, _) = try await Self.previousLaunch(secondsLeft: 0)
    previous.backend.script(.refresh, .lateReply(after: .seconds(5)))
    let auth = Self.relaunch(previous)
    let restore = startTask { try await auth.restorePreviousSignIn() }
    await previous.backendClock.sleepers(atLeast: 1)
    let fresh = try await auth.signInAnonymously()
    previous.backendClock.advance(by: .seconds(5))
    _ = try? await restore.value
    #expect(await UIStateActor.run { auth.stateStore.state } == .signedIn(fresh.user, .fresh))
    #expect(try previous.store.load()?.user == fresh.user)
  }

  /// A sign-in that fails while the launch refresh runs must not leave `restoring` behind: the
  /// restore it overtook still settles the launch when its deadline passes.
  @Test func aSignInThatFailsDuringTheLaunchRefreshLeavesASettledState() async throws {
    let (previous, user) = try await Self.previousLaunch(secondsLeft: 0)
    previous.backend.script(.refresh, .delay(.seconds(60)))
    previous.backend.script(.signUp, .fail(AuthError(.tooManyRequests, "Slow down.")))
    let auth = Self.relaunch(previous)
    let states = Recorder.start(auth.states)
    let restore = startTask { try await auth.restorePreviousSignIn() }
    await previous.backendClock.sleepers(atLeast: 1)
    await #expect(throws: AuthError.self) { try await auth.signInAnonymously() }
    await previous.clock.sleepers(atLeast: 1)  // the restore deadline
    previous.clock.advance(by: .seconds(10))
    #expect(try await restore.value == user)
    #expect(await UIStateActor.run { auth.stateStore.state } == .signedIn(user, .stale))
    #expect(auth.currentState == .signedIn(user, .stale))
    await states.wait(for: .signedIn(user, .stale))
    #expect(!states.values.dropFirst().contains(.restoring))
  }

  @Test func corruptSessionFileIsReportedQuarantinedAndNotReadAsSignedOut() async throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    try Data("{not json".utf8).write(to: store.fileURL)
    let harness = Harness(store: store)
    #expect(await harness.auth.hasPreviousSignIn())
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.restorePreviousSignIn()
    }
    #expect(error?.code == .storage)
    #expect(await harness.shownState() == .signedOut(.storageUnreadable))
    let message = try #require(await harness.stateStore { $0.errorMessage })
    #expect(message.contains("session.json.corrupt-"))
    let kept = try directory.files().filter { $0.hasPrefix("session.json.corrupt-") }
    #expect(kept.count == 1)
    #expect(try Data(contentsOf: directory.url.appendingPathComponent(kept[0])) == Data("{not json".utf8))
  }
}
