import SignInKit

/// A backend that waits `delay` before each call it forwards: a slow network, to watch the
/// spinner and the `signingIn` state, and to try Ctrl-C on a call in flight (`--latency MS`).
/// Every ``AuthBackend`` call is forwarded through ``AuthBackendDecorator``, including those
/// with a default, such as the sign-out's revocation. Cancelling the calling task during the wait throws
/// ``AuthError/Code/cancelled`` and the call never reaches the wrapped backend.
///
/// - Concurrency: `Sendable`; calls run concurrently, each waiting on its own task.
package struct DelayedBackend: AuthBackendDecorator {
  package let wrapped: any AuthBackend
  package let delay: Duration
  let clock: any Clock<Duration>

  package init(_ wrapped: any AuthBackend, delay: Duration, clock: any Clock<Duration> = ContinuousClock()) {
    self.wrapped = wrapped
    self.delay = delay
    self.clock = clock
  }

  /// The same wait before the calls of tenant `tenantID`'s backend.
  package func forTenant(_ tenantID: String?) throws -> any AuthBackend {
    DelayedBackend(try wrapped.forTenant(tenantID), delay: delay, clock: clock)
  }

  private func wait() async throws {
    do {
      try await clock.sleep(for: delay)
    } catch {
      throw AuthError(.cancelled, "The request was cancelled before it was sent; nothing changed.")
    }
  }

  package func intercept<Result: Sendable>(
    _ call: AuthBackendCall, forward: () async throws -> Result
  ) async throws -> Result {
    try await wait()
    return try await forward()
  }
}
