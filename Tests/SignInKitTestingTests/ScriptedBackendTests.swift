import SignInKit
import SignInKitTesting
import Testing

@Suite(.timeLimit(.minutes(3)))
struct ScriptedBackendTests {
  @Test func unscriptedCallsBehaveLikeAnIdentityService() async throws {
    let clock = ManualClock()
    let backend = ScriptedBackend(now: { clock.date })
    let signUp = try await backend.signUp(SignUpRequest(email: "a@b.co", password: "secret1"))
    #expect(signUp.isNewUser)
    let account = try await backend.lookup(LookupRequest(idToken: signUp.tokens.idToken))
    #expect(account.localID == signUp.localID)
    #expect(account.providers.map(\.providerID) == [.password])
    clock.advance(by: .seconds(1))
    let refreshed = try await backend.refresh(
      RefreshTokenRequest(refreshToken: signUp.tokens.refreshToken))
    #expect(refreshed.tokens.idToken != signUp.tokens.idToken)
    await #expect(throws: AuthError.self) {
      try await backend.signUp(SignUpRequest(email: "a@b.co", password: "secret1"))
    }
  }

  @Test func scriptedStepsAreTakenInOrderThenNormalRepliesResume() async throws {
    let backend = ScriptedBackend()
    backend.script(.signUp, .fail(AuthError(.network, "down")), .fail(AuthError(.timeout, "slow")))
    await #expect(throws: AuthError(.network, "down")) { try await backend.signUp(SignUpRequest()) }
    await #expect(throws: AuthError(.timeout, "slow")) { try await backend.signUp(SignUpRequest()) }
    _ = try await backend.signUp(SignUpRequest())
    #expect(backend.count(of: .signUp) == 3)
  }

  @Test func outageLastsUntilCleared() async throws {
    let backend = ScriptedBackend()
    backend.setOutage(.signUp, AuthError(.unavailable, "503"))
    for _ in 0..<3 { await #expect(throws: AuthError.self) { try await backend.signUp(.init()) } }
    backend.setOutage(.signUp, nil)
    _ = try await backend.signUp(SignUpRequest())
  }

  @Test func delayedCallWaitsOnTheClockAndCancellationChangesNothing() async throws {
    let clock = ManualClock()
    let backend = ScriptedBackend(clock: clock)
    backend.script(.signUp, .delay(.seconds(5)))
    let call = Task { try await backend.signUp(SignUpRequest(email: "a@b.co", password: "secret1")) }
    await clock.sleepers(atLeast: 1)
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }
    #expect(await backend.uid(forEmail: "a@b.co") == nil)
  }

  @Test func lateReplyArrivesEvenAfterItsCallerWasCancelled() async throws {
    let clock = ManualClock()
    let backend = ScriptedBackend(clock: clock)
    backend.script(.signUp, .lateReply(after: .seconds(5)))
    let call = Task { try await backend.signUp(SignUpRequest(email: "a@b.co", password: "secret1")) }
    await clock.sleepers(atLeast: 1)
    call.cancel()
    clock.advance(by: .seconds(5))
    #expect(try await call.value.isNewUser)
  }

  @Test func callsAreRecordedWithoutSecretsAndCanBeAwaited() async throws {
    let backend = ScriptedBackend()
    let waiter = Task { await backend.calls(atLeast: 2, of: .signInWithPassword) }
    _ = try await backend.signUp(SignUpRequest(email: "a@b.co", password: "secret1"))
    for _ in 0..<2 {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "a@b.co", password: "secret1"))
    }
    await waiter.value
    #expect(backend.calls.map(\.call) == [.signUp, .signInWithPassword, .signInWithPassword])
    #expect(!backend.calls.map(\.description).joined().contains("secret1"))
  }

  @Test func adminActionsMakeRefreshFailWithFirebaseCodes() async throws {
    let backend = ScriptedBackend()
    let user = try await backend.signUp(SignUpRequest())
    let refresh = RefreshTokenRequest(refreshToken: user.tokens.refreshToken)
    try await backend.setDisabled(true, uid: user.localID)
    let disabled = await #expect(throws: AuthError.self) { try await backend.refresh(refresh) }
    #expect(disabled?.code == .userDisabled)
    try await backend.setDisabled(false, uid: user.localID)
    try await backend.deleteUser(uid: user.localID)
    // The account's refresh tokens went with it.
    let deleted = await #expect(throws: AuthError.self) { try await backend.refresh(refresh) }
    #expect(deleted?.code == .invalidRefreshToken)
  }
}
