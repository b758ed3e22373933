import Foundation

extension Auth {
  /// The signed-in user's ID token with its dates, sign-in provider and claims (FirebaseAuth's
  /// `getIDTokenResult`). Custom claims an administrator set appear after the next refresh: pass
  /// `forceRefresh` to see them at once.
  ///
  /// Refreshes exactly as ``idToken(forceRefresh:)`` does (one flight for any number of callers;
  /// cancelling the calling task throws ``AuthError/Code/cancelled`` for this caller only).
  ///
  /// - Throws: what ``idToken(forceRefresh:)`` throws; ``AuthError/Code/invalidResponse`` when the
  ///   backend's token is not a JWT.
  public func idTokenResult(forceRefresh: Bool = false) async throws -> IDTokenResult {
    try IDTokenResult(token: try await idToken(forceRefresh: forceRefresh))
  }

  /// The signed-in user's ID token, refreshed first when it has less than
  /// ``AuthConfiguration/refreshLeadTime`` left or when `forceRefresh` is set.
  ///
  /// Single flight: any number of concurrent calls that need a refresh share one backend request
  /// and all receive the same token. Cancelling one caller's task makes only that call throw
  /// ``AuthError/Code/cancelled``; the request is cancelled when no caller waits for it any more.
  /// A refresh that finishes after the user changed is dropped.
  ///
  /// - Throws: ``AuthError/Code/noCurrentUser`` when signed out; a transient code (offline) while
  ///   the session is kept as ``SessionHealth/stale``; a terminal code after the user was signed
  ///   out.
  public func idToken(forceRefresh: Bool = false) async throws -> String {
    settleLaunch()
    await publishSettledLaunch()
    guard let session else { throw AuthError.noCurrentUser }
    if !forceRefresh, hasTimeLeft(session) { return session.idToken }
    do {
      return try await refreshFlight.run { [self] in try await refreshSession() }
    } catch {
      throw AuthError.wrapping(error)
    }
  }

  /// Whether `session`'s ID token has more than the refresh lead time left.
  func hasTimeLeft(_ session: StoredSession) -> Bool {
    session.expiresAt.timeIntervalSince(now()) > configuration.refreshLeadTime.seconds
  }

  /// One backend refresh of the current session; runs as the single flight's operation.
  ///
  /// On success the new tokens are stored, then published with `signedIn(user, .fresh)` and
  /// ``AuthEvent/tokenRefreshed``. On a terminal error the user is signed out with its reason;
  /// when the new tokens cannot be stored the session is kept as `.unsaved` with the store's
  /// message; on any other error it is kept as `.stale`; on cancellation the health goes back to
  /// what it was. A result that arrives after the identity changed touches nothing.
  func refreshSession() async throws -> String {
    guard let (attempt, started) = machine.refreshStarted() else { throw AuthError.noCurrentUser }
    await perform(started)
    do {
      let response = try await backend.refresh(
        RefreshTokenRequest(refreshToken: attempt.refreshToken))
      try Task.checkCancellation()
      guard var current = machine.sessionToRefresh(attempt) else { throw AuthError.superseded }
      let previous = current
      current.replaceTokens(with: response.tokens, receivedAt: now())
      try await persist(current, replacing: previous)
      switch machine.refreshSucceeded(attempt, current) {
      case .proceed(let effects): await perform(effects)
      case .superseded: throw AuthError.superseded
      }
      return current.idToken
    } catch {
      let error = AuthError.wrapping(error)
      switch machine.refreshFailed(attempt, error) {
      case .dropped: break
      case .endsSession(let reason): try? await endSession(reason, byUser: false)
      case .handled(let effects): await perform(effects)
      }
      throw error
    }
  }

  /// Replaces the proactive refresh task with one for the current session.
  ///
  /// `failures` > 0 starts in backoff (the session is stale), otherwise the task sleeps until
  /// the lead time before expiry.
  func startAutomaticRefresh(afterFailures failures: Int = 0) {
    autoRefreshTask?.cancel()
    autoRefreshTask = nil
    guard configuration.refreshesAutomatically, !machine.isShutDown, let identity = machine.identity
    else { return }
    autoRefreshTask = Task(executorPreference: configuration.taskExecutor) { [weak self] in
      await self?.refreshAutomatically(of: identity, failures: failures)
    }
  }

  /// How long to wait before refreshing `session` ahead of its expiry: until the lead time
  /// before it expires, but never less than half the token's remaining lifetime and never less
  /// than ``AuthConfiguration/minimumRefreshInterval``. A token issued for less than the lead
  /// time (a 10 s emulator token) would otherwise be refreshed again the moment it arrives.
  func proactiveRefreshDelay(for session: StoredSession) -> Duration {
    let remaining = max(0, session.expiresAt.timeIntervalSince(now()))
    let floor = max(configuration.minimumRefreshInterval.seconds, remaining / 2)
    let seconds = max(remaining - configuration.refreshLeadTime.seconds, floor)
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }

  /// The proactive refresh loop of one identity; ends when the identity changes, on a terminal
  /// failure, or when cancelled.
  private func refreshAutomatically(
    of identity: SessionStateMachine.Identity, failures start: Int
  ) async {
    var failures = start
    while !Task.isCancelled, machine.isCurrent(identity), let session {
      let wait: Duration
      if failures > 0 {
        wait = configuration.retryBackoff.delay(
          afterFailures: failures, random: Double.random(in: 0..<1))
      } else {
        wait = proactiveRefreshDelay(for: session)
      }
      do {
        try await clock.sleep(for: wait)
      } catch {
        return
      }
      guard !Task.isCancelled, machine.isCurrent(identity), let current = self.session else {
        return
      }
      if failures == 0, hasTimeLeft(current) { continue }
      do {
        _ = try await refreshFlight.run { [self] in try await refreshSession() }
        failures = 0
      } catch let error as AuthError where error.code.endsSession {
        return
      } catch {
        if Task.isCancelled || !machine.isCurrent(identity) { return }
        failures += 1
      }
    }
  }
}
