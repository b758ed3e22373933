import Observation
import SignInConcurrency
import SignInKitTesting
import Testing

@testable import SignInKit

@MainActor @Suite(.timeLimit(.minutes(3)))
struct AuthViewModelTests {
  /// Suspends until `predicate` holds for `model`, re-checking on every observed change.
  func wait(
    for model: AuthViewModel, until predicate: @escaping @MainActor (AuthViewModel) -> Bool
  ) async {
    while !predicate(model) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        withObservationTracking {
          _ = predicate(model)
        } onChange: {
          continuation.resume()
        }
      }
    }
  }

  /// Counts the changes a view that reads `read` would be invalidated by.
  final class Invalidations: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }

    @MainActor init(of model: AuthViewModel, reading read: @escaping @MainActor (AuthViewModel) -> Void) {
      track(model, read)
    }

    @MainActor private func track(
      _ model: AuthViewModel, _ read: @escaping @MainActor (AuthViewModel) -> Void
    ) {
      withObservationTracking {
        read(model)
      } onChange: { [self] in
        count.withLock { $0 += 1 }
        Task { @MainActor in self.track(model, read) }
      }
    }
  }

  @Test func showsWhatAuthLastPublishedBeforeFollowing() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    let model = AuthViewModel(auth: harness.auth)
    #expect(model.state == .signedIn(result.user, .fresh))
    #expect(model.user == result.user)
  }

  @Test func followsEachChangeInTheOrderAuthPublishedIt() async throws {
    let harness = Harness()
    let model = AuthViewModel(auth: harness.auth)
    let following = Task { await model.follow() }
    let states = Invalidations(of: model) { _ = $0.state }
    let result = try await harness.signUp()
    await wait(for: model) { $0.state == .signedIn(result.user, .fresh) && !$0.isBusy }
    #expect(model.user == result.user)
    #expect(states.value >= 1)

    await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "nobody@example.com", password: "wrong password")
    }
    await wait(for: model) { $0.errorMessage != nil && !$0.isBusy }
    #expect(model.state == .signedIn(result.user, .fresh))
    // While the failed sign-in was in flight the user stayed the signed-in one.
    #expect(model.user == result.user)
    following.cancel()
    await following.value
  }

  @Test func aRefreshThatOnlyChangesHealthDoesNotInvalidateAViewOfTheUser() async throws {
    let harness = Harness()
    let result = try await harness.signUp()
    let model = AuthViewModel(auth: harness.auth)
    let following = Task { await model.follow() }
    await wait(for: model) { $0.user == result.user }
    let userViews = Invalidations(of: model) { _ = $0.user }
    let stateViews = Invalidations(of: model) { _ = $0.state }
    harness.backend.script(.refresh, .delay(.seconds(5)))
    let refresh = Task { try await harness.auth.idToken(forceRefresh: true) }
    await wait(for: model) { $0.state == .signedIn(result.user, .refreshing) }
    harness.backendClock.advance(by: .seconds(5))
    _ = try await refresh.value
    await wait(for: model) { $0.state == .signedIn(result.user, .fresh) }
    #expect(stateViews.value >= 2)
    #expect(userViews.value == 0)
    following.cancel()
    await following.value
  }

  @Test func followingEndsWhenAuthShutsDown() async throws {
    let harness = Harness()
    let model = AuthViewModel(auth: harness.auth)
    let following = Task { await model.follow() }
    _ = try await harness.auth.restorePreviousSignIn()
    await wait(for: model) { $0.state == .signedOut(.initial) }
    await harness.auth.shutdown()
    await following.value  // returns: the stream ended
    #expect(model.state == .signedOut(.initial))
  }

  @Test func followingStartsFromTheMessageAlreadyShown() async throws {
    // Given a failure published before the model exists,
    let harness = Harness()
    await #expect(throws: AuthError.self) {
      try await harness.auth.signIn(email: "nobody@example.com", password: "whatever1")
    }
    let message = try #require(await harness.stateStore { $0.errorMessage })
    let model = AuthViewModel(auth: harness.auth)
    #expect(model.errorMessage == nil)
    // when it starts following, and nothing else changes,
    let following = Task { await model.follow() }
    // then it shows that message: the store's current screen comes first.
    await wait(for: model) { $0.errorMessage == message }
    following.cancel()
  }
}
