import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(3)))
struct AuthRefreshTests {
  static let manual = AuthConfiguration(refreshesAutomatically: false)

  // MARK: Single flight

  @Test func tenThousandConcurrentTokenRequestsMakeOneRefresh() async throws {
    let harness = Harness(configuration: Self.manual)
    try await harness.signUp()
    harness.clock.advance(by: .seconds(3600))  // the ID token has expired
    harness.backend.script(.refresh, .delay(.seconds(1)))
    let callers = 10_000
    let tokens = Task {
      try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<callers { group.addTask { try await harness.auth.idToken() } }
        return try await group.reduce(into: Set<String>()) { $0.insert($1) }
      }
    }
    // Hold the one refresh until every caller waits on it and the backend call is parked.
    await harness.auth.refreshFlight.waiters(atLeast: callers)
    await harness.backendClock.sleepers(atLeast: 1)
    harness.backendClock.advance(by: .seconds(1))
    let distinct = try await tokens.value
    #expect(distinct.count == 1)
    #expect(harness.backend.count(of: .refresh) == 1)
    #expect(try harness.store.load()?.idToken == distinct.first)
  }

  @Test func cancellingOneTokenWaiterLeavesTheRefreshToTheOthers() async throws {
    let harness = Harness(configuration: Self.manual)
    try await harness.signUp()
    harness.backend.script(.refresh, .delay(.seconds(1)))
    let leaving = startTask { try await harness.auth.idToken(forceRefresh: true) }
    let staying = startTask { try await harness.auth.idToken(forceRefresh: true) }
    await harness.auth.refreshFlight.waiters(atLeast: 2)
    await harness.backendClock.sleepers(atLeast: 1)
    leaving.cancel()
    let error = await #expect(throws: AuthError.self) { try await leaving.value }
    #expect(error?.code == .cancelled)
    #expect(harness.backendClock.sleeperCount == 1)
    harness.backendClock.advance(by: .seconds(1))
    let token = try await staying.value
    #expect(try harness.store.load()?.idToken == token)
    #expect(harness.backend.count(of: .refresh) == 1)
  }

  @Test func cancellingEveryTokenWaiterCancelsTheRefreshAndRestoresTheHealth() async throws {
    let harness = Harness(configuration: Self.manual)
    let result = try await harness.signUp()
    let before = try harness.store.load()
    harness.backend.script(.refresh, .delay(.seconds(1)))
    let states = Recorder.start(harness.auth.states)
    let waiter = startTask { try await harness.auth.idToken(forceRefresh: true) }
    await harness.backendClock.sleepers(atLeast: 1)
    #expect(await harness.shownState() == .signedIn(result.user, .refreshing))
    waiter.cancel()
    await #expect(throws: AuthError.self) { try await waiter.value }
    // Cancelling the last waiter cancelled the backend call at once.
    #expect(harness.backendClock.sleeperCount == 0)
    await states.wait { $0.last == .signedIn(result.user, .fresh) }
    #expect(
      states.values.isSubsequence(of: [
        .signedIn(result.user, .fresh), .signedIn(result.user, .refreshing),
        .signedIn(result.user, .fresh),
      ]))
    #expect(try harness.store.load() == before)
  }

  @Test func tokenWithTimeLeftIsReturnedWithoutNetwork() async throws {
    let harness = Harness(configuration: Self.manual)
    try await harness.signUp()
    harness.clock.advance(by: .seconds(3299))  // 301 s left: more than the 5-minute lead
    let token = try await harness.auth.idToken()
    #expect(token == (try harness.store.load()?.idToken))
    #expect(harness.backend.count(of: .refresh) == 0)
    harness.clock.advance(by: .seconds(2))  // 299 s left: refreshed first
    let refreshed = try await harness.auth.idToken()
    #expect(refreshed != token)
    #expect(harness.backend.count(of: .refresh) == 1)
  }

  @Test func tokenRequestWhenSignedOutSaysSignInFirst() async {
    let harness = Harness()
    let error = await #expect(throws: AuthError.self) { try await harness.auth.idToken() }
    #expect(error?.code == .noCurrentUser)
  }

  // MARK: Proactive refresh

  @Test func refreshesProactivelyFiveMinutesBeforeExpiry() async throws {
    let harness = Harness()
    try await harness.signUp()
    let events = Recorder.start(harness.auth.events)
    await harness.clock.sleepers(atLeast: 1)
    harness.clock.advance(by: .seconds(3299))
    #expect(harness.clock.sleeperCount == 1)  // not due yet
    harness.clock.advance(by: .seconds(1))
    await events.wait(for: .tokenRefreshed)
    #expect(harness.backend.count(of: .refresh) == 1)
    // The next cycle is scheduled from the new token's expiry.
    await harness.clock.sleepers(atLeast: 1)
    harness.clock.advance(by: .seconds(3299))
    #expect(harness.clock.sleeperCount == 1)
  }

  @Test func aTokenShorterThanTheLeadTimeIsRefreshedAFewTimesAMinuteNotInALoop() async throws {
    let harness = Harness(tokenLifetime: .seconds(10))
    try await harness.signUp()
    // Walk one minute of clock time a second at a time; each step waits until the refresh loop
    // is parked again (a loop that never waits never parks, and the test fails on its limit).
    for _ in 0..<60 {
      await harness.clock.sleepers(atLeast: 1)
      harness.clock.advance(by: .seconds(1))
    }
    await harness.clock.sleepers(atLeast: 1)
    #expect(harness.backend.count(of: .refresh) == 2)  // at 30 s and at 60 s
    await harness.auth.shutdown()
  }

  @Test func transientRefreshFailureKeepsTheUserSignedInStale() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    let states = Recorder.start(harness.auth.states)
    harness.backend.setOutage(.refresh, AuthError(.network, "offline"))
    await harness.clock.sleepers(atLeast: 1)
    harness.clock.advance(by: .seconds(3300))
    await states.wait(for: .signedIn(result.user, .stale))
    #expect(harness.auth.currentUser == result.user)
    #expect(try harness.store.load()?.user == result.user)
    // Back online: the scheduled retry makes the session fresh again.
    harness.backend.setOutage(.refresh, nil)
    await harness.clock.sleepers(atLeast: 1)
    harness.clock.advance(by: .seconds(60))
    await states.wait { $0.last == .signedIn(result.user, .fresh) }
    let recovery = Array(states.values.drop { $0 != .signedIn(result.user, .stale) })
    #expect(recovery.last == .signedIn(result.user, .fresh))
    #expect(!recovery.contains { $0.isSignedOut })
  }

  @Test func transientFailuresRetryWithJitteredExponentialBackoffUpToSixteenMinutes() async throws {
    let jitter = 0.5
    let harness = Harness(
      configuration: AuthConfiguration(retryBackoff: RetryBackoff(jitter: jitter)))
    try await harness.signUp()
    harness.backend.setOutage(.refresh, AuthError(.network, "offline"))
    await harness.clock.sleepers(atLeast: 1)
    harness.clock.advance(by: .seconds(3300))
    var attempts = 1
    await harness.backend.calls(atLeast: attempts, of: .refresh)
    for base in [60, 120, 240, 480, 960, 960, 960] {
      await harness.clock.sleepers(atLeast: 1)
      // Jitter shortens a delay by at most half: before base/2 nothing is due…
      harness.clock.advance(by: .seconds(Double(base) * (1 - jitter)) - .milliseconds(1))
      #expect(harness.clock.sleeperCount == 1, "retry came before \(base) s × (1 − jitter)")
      // …and by the full base delay the retry has happened.
      harness.clock.advance(by: .seconds(Double(base) * jitter) + .milliseconds(1))
      attempts += 1
      await harness.backend.calls(atLeast: attempts, of: .refresh)
    }
  }

  // MARK: Terminal failures

  @Test(arguments: [
    (AuthError.Code.invalidRefreshToken, SignOutReason.refreshRejected(.invalidRefreshToken)),
    (.sessionExpired, .refreshRejected(.sessionExpired)),
    (.userNotFound, .userDeleted),
    (.userDisabled, .userDisabled),
  ])
  func terminalRefreshFailureSignsOutWithItsReasonAndClearsTheStore(
    code: AuthError.Code, reason: SignOutReason
  ) async throws {
    let harness = Harness(configuration: Self.manual)
    try await harness.signUp()
    let events = Recorder.start(harness.auth.events)
    harness.backend.script(.refresh, .fail(AuthError(code, "rejected")))
    let error = await #expect(throws: AuthError.self) {
      try await harness.auth.idToken(forceRefresh: true)
    }
    #expect(error?.code == code)
    #expect(await harness.shownState() == .signedOut(reason))
    #expect(try harness.store.load() == nil)
    #expect(harness.auth.currentUser == nil)
    await events.wait(for: .signedOut(reason))
  }

  @Test func accountDisabledElsewhereEndsTheSessionAtTheNextProactiveRefresh() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    try await harness.backend.setDisabled(true, uid: result.user.uid)
    let states = Recorder.start(harness.auth.states)
    await harness.clock.sleepers(atLeast: 1)
    harness.clock.advance(by: .seconds(3300))
    await states.wait(for: .signedOut(.userDisabled))
    #expect(try harness.store.load() == nil)
    #expect(harness.clock.sleeperCount == 0)  // no retry loop left behind
  }

  /// A provider that counts the sign-outs it is asked for.
  actor SignOutCounter: SignInProvider {
    let inner = Harness.appleProvider()
    var signOuts = 0
    nonisolated var id: ProviderID { .apple }
    func credential() async throws -> ProviderCredential { try await inner.credential() }
    func signOut() async { signOuts += 1 }
  }

  @Test func theSignedInProviderEndsWithASessionTheBackendEnded() async throws {
    let harness = Harness(configuration: Self.manual)
    let apple = SignOutCounter()
    _ = try await harness.auth.signIn(with: apple)
    harness.backend.script(.refresh, .fail(AuthError(.invalidRefreshToken, "revoked")))
    await #expect(throws: AuthError.self) { try await harness.auth.idToken(forceRefresh: true) }
    #expect(harness.auth.currentState == .signedOut(.refreshRejected(.invalidRefreshToken)))
    // The session is over, and its provider with it: a sign-out now asks nobody to sign out.
    try await harness.auth.signOut()
    #expect(await apple.signOuts == 0)
    // While the provider's session lasts, a sign-out asks it too.
    _ = try await harness.auth.signIn(with: apple)
    try await harness.auth.signOut()
    #expect(await apple.signOuts == 1)
    await harness.auth.shutdown()
  }
}

@Suite struct RetryBackoffTests {
  @Test func doublesFromSixtySecondsAndCapsAtSixteenMinutes() {
    let backoff = RetryBackoff()
    let bases = (1...8).map { backoff.baseDelay(afterFailures: $0) }
    #expect(
      bases == [60, 120, 240, 480, 960, 960, 960, 960].map { Duration.seconds($0) })
  }

  @Test func jitterOnlyShortensTheDelayWithinItsFraction() {
    let backoff = RetryBackoff(jitter: 0.25)
    #expect(backoff.delay(afterFailures: 2, random: 0) == .seconds(120))
    #expect(backoff.delay(afterFailures: 2, random: 0.999_999) > .seconds(90))
    #expect(backoff.delay(afterFailures: 2, random: 1) == .seconds(90))
  }
}
