import SignInKit

/// A backend that waits `delay` before each call it forwards: a slow network, to watch the
/// spinner and the `signingIn` state, and to try Ctrl-C on a call in flight (`--latency MS`).
/// Every ``AuthBackend`` call is forwarded, including those with a default, such as the
/// sign-out's revocation. Cancelling the calling task during the wait throws
/// ``AuthError/Code/cancelled`` and the call never reaches the wrapped backend.
///
/// - Concurrency: `Sendable`; calls run concurrently, each waiting on its own task.
public struct DelayedBackend: AuthBackend {
  public let wrapped: any AuthBackend
  public let delay: Duration
  let clock: any Clock<Duration>

  public init(_ wrapped: any AuthBackend, delay: Duration, clock: any Clock<Duration> = ContinuousClock()) {
    self.wrapped = wrapped
    self.delay = delay
    self.clock = clock
  }

  private func wait() async throws {
    do {
      try await clock.sleep(for: delay)
    } catch {
      throw AuthError(.cancelled, "The request was cancelled before it was sent; nothing changed.")
    }
  }

  public func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    try await wait()
    return try await wrapped.signUp(request)
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    try await wait()
    return try await wrapped.signInWithPassword(request)
  }

  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    try await wait()
    return try await wrapped.signInWithCustomToken(request)
  }

  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    try await wait()
    return try await wrapped.signInWithIdp(request)
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    try await wait()
    return try await wrapped.refresh(request)
  }

  public func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    try await wait()
    return try await wrapped.lookup(request)
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    try await wait()
    return try await wrapped.update(request)
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    try await wait()
    try await wrapped.delete(request)
  }

  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    try await wait()
    return try await wrapped.sendOobCode(request, settings: settings)
  }

  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    try await wait()
    return try await wrapped.secondFactor(request)
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    try await wait()
    return try await wrapped.signInWithEmailLink(request)
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    try await wait()
    return try await wrapped.resetPassword(request)
  }

  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {
    try await wait()
    try await wrapped.revokeRefreshToken(request)
  }

  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    try await wait()
    try await wrapped.revokeToken(request)
  }
}
