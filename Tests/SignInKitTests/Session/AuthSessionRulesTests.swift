import Foundation
import SignInKitTesting
import SignInTestSupport
import Synchronization
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(3)))
struct AuthSessionRulesTests {
  // MARK: Persist first, publish second

  @Test func subscriberThatSeesSignedInFindsTheSessionAlreadyStored() async throws {
    let store = RecordingSessionStore()
    let harness = Harness(store: store)
    // The subscriber writes what it saw into the same log the store writes into.
    let consumer = Task {
      for await state in harness.auth.states {
        if case .signedIn(let user, _) = state {
          store.log.withLock { $0.append("seen \(user.uid)") }
        }
      }
    }
    try await harness.signUp("a@example.com")
    try await harness.auth.signOut()
    try await harness.signUp("b@example.com")
    _ = try await harness.auth.signInAnonymously()
    await harness.auth.shutdown()
    await consumer.value
    let entries = store.log.withLock { $0 }
    let seen = entries.enumerated().filter { $0.element.hasPrefix("seen ") }
    #expect(seen.count >= 1)
    for (index, entry) in seen {
      let uid = entry.dropFirst("seen ".count)
      #expect(entries[..<index].contains("saved \(uid)"), "saw \(uid) before it was stored")
    }
  }

  @Test func signInWhoseSessionCannotBeStoredFailsAndShowsThePreviousState() async throws {
    let store = RecordingSessionStore()
    let harness = Harness(store: store)
    let first = try await harness.signUp("a@example.com")
    store.failures.withLock { $0 = AuthError(.storage, "disk full") }
    await #expect(throws: AuthError(.storage, "disk full")) {
      try await harness.auth.signInAnonymously()
    }
    #expect(await harness.shownState() == .signedIn(first.user, .fresh))
    #expect(harness.auth.currentUser == first.user)
  }

  @Test func signOutThatCannotClearTheStoreKeepsTheUserSignedIn() async throws {
    let store = RecordingSessionStore()
    let harness = Harness(store: store)
    let first = try await harness.signUp()
    store.failures.withLock { $0 = AuthError(.storage, "read-only") }
    await #expect(throws: AuthError.self) { try await harness.auth.signOut() }
    #expect(await harness.shownState() == .signedIn(first.user, .fresh))
    #expect(try store.load()?.user == first.user)
  }

  // MARK: Epochs: the last started wins

  @Test func lateRefreshAfterSignOutIsDropped() async throws {
    let harness = Harness()
    try await harness.signUp()
    let events = Recorder.start(harness.auth.events)
    harness.backend.script(.refresh, .lateReply(after: .seconds(10)))
    let refresh = startTask { try await harness.auth.idToken(forceRefresh: true) }
    await harness.backendClock.sleepers(atLeast: 1)
    try await harness.auth.signOut()
    harness.backendClock.advance(by: .seconds(10))
    await #expect(throws: AuthError.self) { try await refresh.value }
    #expect(await harness.shownState() == .signedOut(.userRequested))
    #expect(try harness.store.load() == nil)
    #expect(harness.auth.currentUser == nil)
    await events.wait { $0.contains(.signedOut(.userRequested)) }
    #expect(!events.values.contains(.tokenRefreshed))
  }

  @Test func lateSignInAfterNewerSignInIsDropped() async throws {
    let harness = Harness()
    try await harness.signUp("a@example.com")
    try await harness.auth.signOut()
    try await harness.signUp("b@example.com")
    try await harness.auth.signOut()
    harness.backend.script(.signInWithPassword, .lateReply(after: .seconds(10)))
    let slow = startTask {
      try await harness.auth.signIn(email: "a@example.com", password: "correct horse")
    }
    await harness.backendClock.sleepers(atLeast: 1)
    let fast = try await harness.auth.signIn(email: "b@example.com", password: "correct horse")
    harness.backendClock.advance(by: .seconds(10))
    await #expect(throws: AuthError.self) { try await slow.value }
    #expect(await harness.shownState() == .signedIn(fast.user, .fresh))
    #expect(try harness.store.load()?.user == fast.user)
  }

  @Test func lateSignInAfterSignOutIsDropped() async throws {
    let harness = Harness()
    try await harness.signUp()
    try await harness.auth.signOut()
    harness.backend.script(.signInWithPassword, .lateReply(after: .seconds(10)))
    let slow = startTask {
      try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
    }
    await harness.backendClock.sleepers(atLeast: 1)
    try await harness.auth.signOut()
    harness.backendClock.advance(by: .seconds(10))
    let error = await #expect(throws: AuthError.self) { try await slow.value }
    #expect(error?.code == .superseded)
    #expect(await harness.shownState() == .signedOut(.userRequested))
    #expect(try harness.store.load() == nil)
  }

  @Test func lateProfileUpdateAfterUserChangedIsDropped() async throws {
    let harness = Harness()
    try await harness.signUp("a@example.com")
    harness.backend.script(.update, .lateReply(after: .seconds(10)))
    let update = startTask { try await harness.auth.updateProfile(displayName: "A", photoURL: nil) }
    await harness.backendClock.sleepers(atLeast: 1)
    let other = try await harness.auth.signInAnonymously()
    harness.backendClock.advance(by: .seconds(10))
    let error = await #expect(throws: AuthError.self) { try await update.value }
    #expect(error?.code == .superseded)
    #expect(await harness.shownState() == .signedIn(other.user, .fresh))
    #expect(try harness.store.load()?.user == other.user)
  }

  // MARK: Cancellation

  @Test func cancellingSignInCancelsTheBackendCallAndRestoresTheState() async throws {
    let harness = Harness()
    let first = try await harness.signUp("a@example.com")
    harness.backend.script(.signUp, .delay(.seconds(30)))
    let attempt = startTask { try await harness.auth.signInAnonymously() }
    await harness.backendClock.sleepers(atLeast: 1)
    #expect(await harness.shownState() == .signingIn(.anonymous))
    attempt.cancel()
    let error = await #expect(throws: AuthError.self) { try await attempt.value }
    #expect(error?.code == .cancelled)
    #expect(harness.backendClock.sleeperCount == 0)
    #expect(await harness.shownState() == .signedIn(first.user, .fresh))
    #expect(try harness.store.load()?.user == first.user)
    #expect(harness.backend.count(of: .lookup) == 1)
    #expect(await harness.stateStore { $0.isBusy } == false)
    #expect(await harness.stateStore { $0.errorMessage } == nil)
  }

  @Test func cancellingProviderSignInCancelsTheProviderAndRestoresTheState() async throws {
    let harness = Harness()
    _ = try await harness.auth.restorePreviousSignIn()
    let providerClock = ManualClock()
    let provider = StubProvider(.google, delay: .seconds(60), clock: providerClock)
    let attempt = startTask { try await harness.auth.signIn(with: provider) }
    await providerClock.sleepers(atLeast: 1)
    #expect(await harness.shownState() == .signingIn(.google))
    attempt.cancel()
    await #expect(throws: AuthError.self) { try await attempt.value }
    #expect(await harness.shownState() == .signedOut(.initial))
    #expect(harness.backend.count(of: .signInWithIdp) == 0)
  }

  @Test func aPersonWhoStopsTheSignInIsNotShownAFailure() async throws {
    let harness = Harness()
    _ = try await harness.auth.restorePreviousSignIn()
    let events = Recorder.start(harness.auth.events)
    let closed = StubProvider(.google, result: .failure(AuthError(.userCancelled, "The sign-in sheet was closed.")))
    let error = await #expect(throws: AuthError.self) { try await harness.auth.signIn(with: closed) }
    #expect(error?.code == .userCancelled)
    #expect(error?.code.isCancellation == true)
    #expect(await harness.shownState() == .signedOut(.initial))
    #expect(await harness.stateStore { $0.errorMessage } == nil)
    // A failure after it is reported, so the recorder has seen everything before it.
    let refused = StubProvider(.google, result: .failure(AuthError(.invalidCredential, "Refused.")))
    await #expect(throws: AuthError.self) { try await harness.auth.signIn(with: refused) }
    await events.wait { $0.contains { if case .failed = $0 { true } else { false } } }
    let failures = events.values.filter { if case .failed = $0 { true } else { false } }
    #expect(failures.count == 1)
  }

  @Test func onlyTheThreeWaysACallStopsCountAsCancellation() {
    #expect([AuthError.Code.cancelled, .superseded, .userCancelled].allSatisfy { $0.isCancellation })
    #expect(!AuthError.Code.invalidCredential.isCancellation)
    #expect(AuthError.wrapping(CancellationError()).code == .cancelled)
  }

  // MARK: Sign-out reasons

  @Test func everySignedOutCarriesItsReason() async throws {
    let harness = Harness()
    let events = Recorder.start(harness.auth.events)
    _ = try await harness.auth.restorePreviousSignIn()
    #expect(await harness.shownState() == .signedOut(.initial))
    try await harness.signUp()
    try await harness.auth.signOut()
    #expect(await harness.shownState() == .signedOut(.userRequested))
    _ = try await harness.auth.signInAnonymously()
    try await harness.auth.deleteAccount()
    #expect(await harness.shownState() == .signedOut(.userDeleted))
    let refreshed = try await harness.signUp("b@example.com")
    try await harness.backend.revokeTokens(uid: refreshed.user.uid)
    await #expect(throws: AuthError.self) { try await harness.auth.idToken(forceRefresh: true) }
    #expect(await harness.shownState() == .signedOut(.refreshRejected(.invalidRefreshToken)))
    // The events stream is not conflated: every sign-out is there, with its reason.
    let expected: [SignOutReason] = [
      .userRequested, .userDeleted, .refreshRejected(.invalidRefreshToken),
    ]
    await events.wait { $0.compactMap(\.signOutReason).count >= expected.count }
    #expect(events.values.compactMap(\.signOutReason) == expected)
    #expect(events.values.first == .initialState(.signedOut(.initial)))
  }
}

extension AuthEvent {
  var signOutReason: SignOutReason? {
    if case .signedOut(let reason) = self { return reason }
    return nil
  }
}

extension AuthState {
  var isSignedOut: Bool {
    if case .signedOut = self { return true }
    return false
  }
}

extension AuthSessionRulesTests {
  // MARK: The launch settles however the app starts

  static func shown(_ auth: Auth) async -> AuthState {
    let store = auth.stateStore
    return await UIStateActor.run { store.state }
  }

  /// A new `Auth` over `harness`'s backend, store and clock, as the next launch of the app
  /// builds it; nothing is called on it yet.
  static func relaunch(_ harness: Harness) -> Auth {
    let clock = harness.clock
    return Auth(backend: harness.backend, store: harness.store, clock: clock, now: { clock.date })
  }

  @Test func aFailedFirstSignInEndsSignedOutNotRestoring() async throws {
    let harness = Harness()
    try await harness.signUp()
    // A new app: Auth(backend:store:) and a sign-in with a typo, no restorePreviousSignIn().
    let auth = Auth(backend: harness.backend, store: InMemorySessionStore())
    let states = Recorder.start(auth.states)
    await #expect(throws: AuthError.self) { _ = try await auth.signIn(email: "ada@example.com", password: "typo") }
    let settled = AuthState.signedOut(.initial)
    #expect(await Self.shown(auth) == settled)
    await states.wait(for: settled)
    let legal: [AuthState] = [.restoring, .signingIn(.password), settled]
    #expect(states.values.isSubsequence(of: legal))
    await auth.shutdown()
  }

  @Test func aTokenRequestFirstReadsTheStoredSessionWithoutARestore() async throws {
    let harness = Harness()
    let user = try await harness.signUp().user
    let relaunched = Self.relaunch(harness)
    let token = try await relaunched.idToken()
    #expect(token == (try harness.store.load()?.idToken))
    #expect(await Self.shown(relaunched) == AuthState.signedIn(user, .fresh))
    await relaunched.shutdown()

    let empty = Auth(backend: harness.backend, store: InMemorySessionStore())
    await #expect(throws: AuthError.self) { _ = try await empty.idToken() }
    #expect(await Self.shown(empty) == AuthState.signedOut(.initial))
    await empty.shutdown()
  }

  @Test func restoringAfterTheLaunchSettledIsStillAllowed() async throws {
    let harness = Harness()
    let user = try await harness.signUp().user
    let relaunched = Self.relaunch(harness)
    _ = try? await relaunched.reload()
    #expect(try await relaunched.restorePreviousSignIn() == user)
    #expect(try await relaunched.restorePreviousSignIn() == user)
    await relaunched.shutdown()
  }
}
