import Foundation
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

@Suite(.timeLimit(.minutes(3)))
struct AuthStreamsTests {
  @Test func replaysCurrentStateToNewSubscriber() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    var iterator = harness.auth.states.makeAsyncIterator()
    #expect(await iterator.next() == .signedIn(result.user, .fresh))
  }

  @Test func newAuthStartsRestoringUntilTheStoreIsRead() async {
    let harness = Harness()
    var iterator = harness.auth.states.makeAsyncIterator()
    #expect(await iterator.next() == .restoring)
  }

  @Test func everySubscriberSeesTheSameOrderOfStatesAndEndsOnTheNewest() async throws {
    let harness = Harness()
    let recorders = (0..<5).map { _ in Recorder.start(harness.auth.states) }
    let first = try await harness.signUp()
    try await harness.auth.signOut()
    let second = try await harness.auth.signInAnonymously()
    let published: [AuthState] = [
      .restoring, .signingIn(.password), .signedIn(first.user, .fresh), .signedOut(.userRequested),
      .signingIn(.anonymous), .signedIn(second.user, .fresh),
    ]
    // A subscriber may be conflated past states it was too slow for, but it never sees them in
    // another order, and it always ends on the newest one.
    for recorder in recorders {
      await recorder.wait { $0.last == published.last }
      #expect(recorder.values.isSubsequence(of: published))
    }
  }

  @Test(arguments: BackendKind.allCases)
  func usersChangesOnlyWithTheIdentityOrItsProfile(kind: BackendKind) async throws {
    let harness = Harness(kind)
    let users = Recorder.start(harness.auth.users)
    _ = try await harness.auth.restorePreviousSignIn()
    await users.wait(for: nil)
    let first = try await harness.signUp()
    await users.wait(for: first.user)
    // Only the session's health and tokens change: nothing is sent.
    _ = try await harness.auth.idToken(forceRefresh: true)
    let renamed = try await harness.auth.updateProfile(displayName: "Ada", photoURL: nil)
    await users.wait(for: renamed)
    try await harness.auth.signOut()
    await users.wait { $0.count == 4 }
    #expect(users.values == [nil, first.user, renamed, nil])
  }

  @Test func aUsersSubscriberWaitsForTheLaunchToSettleThenGetsTheCurrentUser() async throws {
    let harness = Harness()
    var early = harness.auth.users.makeAsyncIterator()
    let result = try await harness.signUp()
    // It never sees the launch's "restoring": its first value is the signed-in user.
    #expect(await early.next() == .some(result.user))
    var late = harness.auth.users.makeAsyncIterator()
    #expect(await late.next() == .some(result.user))
    await harness.auth.shutdown()
    #expect(await late.next() == nil)
  }

  @Test func storeShowsEachStateBeforeTheCallThatCausedItReturns() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    #expect(await harness.shownState() == .signedIn(result.user, .fresh))
    #expect(await harness.stateStore { $0.isBusy } == false)
  }

  @Test func subscriberCountReturnsToZeroWhenSubscribersStop() async throws {
    let harness = Harness()
    let recorders = (0..<10).map { _ in Recorder.start(harness.auth.states) }
    for recorder in recorders { await recorder.wait(for: .restoring) }
    #expect(harness.auth.stateStore.states.subscriberCount == 10)
    for recorder in recorders { recorder.cancel() }
    for recorder in recorders { await recorder.waitForFinish() }
    #expect(harness.auth.stateStore.states.subscriberCount == 0)
    let events = Recorder.start(harness.auth.events)
    try await harness.signUp()
    await events.wait { !$0.isEmpty }
    #expect(harness.auth.stateStore.events.subscriberCount == 1)
    events.cancel()
    await events.waitForFinish()
    #expect(harness.auth.stateStore.events.subscriberCount == 0)
  }

  @Test func shutdownFinishesAllStreams() async throws {
    let harness = Harness()
    let states = Recorder.start(harness.auth.states)
    let events = Recorder.start(harness.auth.events)
    let tokens = Recorder.start(harness.auth.idTokens)
    await states.wait(for: .restoring)
    await harness.auth.shutdown()
    await states.waitForFinish()
    await events.waitForFinish()
    await tokens.waitForFinish()
    await #expect(throws: AuthError.self) { try await harness.signUp() }
  }

  @Test func eventsAreNotReplayedToLateSubscribers() async throws {
    let harness = Harness()
    try await harness.signUp()
    let events = Recorder.start(harness.auth.events)
    try await harness.auth.signOut()
    await events.wait { $0.contains(.signedOut(.userRequested)) }
    #expect(events.values == [.signedOut(.userRequested)])
  }

  @Test func eventsReportSignInWithNewUserFlag() async throws {
    let harness = Harness()
    let events = Recorder.start(harness.auth.events)
    let first = try await harness.signUp()
    try await harness.auth.signOut()
    let second = try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
    await events.wait { $0.count >= 3 }
    #expect(
      events.values == [
        .signedIn(first.user, isNewUser: true), .signedOut(.userRequested),
        .signedIn(second.user, isNewUser: false),
      ])
  }

  @Test func idTokensEmitOnEveryTokenChange() async throws {
    let harness = Harness()
    let tokens = Recorder.start(harness.auth.idTokens)
    // The stream conflates for a subscriber that falls behind: take the replay before changing.
    await tokens.wait { $0.count >= 1 }
    try await harness.signUp()
    let first = try await harness.auth.idToken()
    // A token is dated to the second: one made a second later is another token.
    harness.clock.advance(by: .seconds(1))
    let second = try await harness.auth.idToken(forceRefresh: true)
    try await harness.auth.signOut()
    await tokens.wait { $0.count >= 4 }
    #expect(tokens.values == [nil, first, second, nil])
    #expect(first != second)
  }

  @Test func failedOperationSetsErrorMessageAndTheNextOneClearsIt() async throws {
    let harness = Harness()
    let events = Recorder.start(harness.auth.events)
    await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "nobody@example.com", password: "whatever1")
    }
    #expect(await harness.stateStore { $0.errorMessage } != nil)
    await events.wait { $0.contains { if case .failed = $0 { true } else { false } } }
    try await harness.signUp()
    #expect(await harness.stateStore { $0.errorMessage } == nil)
  }

  @Test func aSignInReachesTheScreenInTwoHops() async throws {
    // Given a settled launch and an account,
    let harness = Harness()
    _ = try await harness.signUp()
    try await harness.auth.signOut()
    // a sign-in hops onto UIStateActor twice: busy with signingIn, then the user with not busy;
    let before = await harness.stateStore { $0.drainCount }
    _ = try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
    #expect(await harness.stateStore { $0.drainCount } - before == 2)
    #expect(await harness.stateStore { !$0.isBusy && $0.state.isSignedIn })
    // and so does one that fails.
    try await harness.auth.signOut()
    let beforeFailure = await harness.stateStore { $0.drainCount }
    await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "ada@example.com", password: "wrong horse")
    }
    #expect(await harness.stateStore { $0.drainCount } - beforeFailure == 2)
    #expect(await harness.stateStore { !$0.isBusy && $0.errorMessage != nil })
  }
}
