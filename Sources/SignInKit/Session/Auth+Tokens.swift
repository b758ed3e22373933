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
    machine.schedule.hasTimeLeft(session, now: now())
  }

  /// One backend refresh of the current session; runs as the single flight's operation.
  ///
  /// On success the new tokens are stored, then published with `signedIn(user, .fresh)` and
  /// ``AuthEvent/tokenRefreshed``. On a terminal error the user is signed out with its reason;
  /// when the new tokens cannot be stored the session is kept as `.unsaved` with the store's
  /// message; on any other error it is kept as `.stale`; on cancellation the health goes back to
  /// what it was. A result that arrives after the identity changed touches nothing.
  func refreshSession() async throws -> String {
    guard let (attempt, started) = machine.refreshStarted(), let startedFrom = machine.session else {
      throw AuthError.noCurrentUser
    }
    await perform(started)
    do {
      return try await store.whileRefreshing {
        // Another process that shares the store may have refreshed while this one waited for
        // the lock: its tokens are as good, and a second refresh would be one too many.
        if let refreshed = sessionRefreshedElsewhere(since: startedFrom) {
          try await perform(machine.refreshSucceeded(attempt, refreshed))
          return refreshed.idToken
        }
        let response = try await backend.refresh(
          RefreshTokenRequest(refreshToken: attempt.refreshToken))
        try Task.checkCancellation()
        var current = try machine.session(of: attempt.identity)
        let before = current
        current.replaceTokens(with: response.tokens, receivedAt: now())
        current = try await persist(current, replacing: before)
        try await perform(machine.refreshSucceeded(attempt, current))
        return current.idToken
      }
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

  /// Replaces the proactive refresh task with one for the current identity, when the machine
  /// says there is one to refresh ahead of expiry.
  func startAutomaticRefresh() {
    autoRefreshTask?.cancel()
    autoRefreshTask = nil
    guard let identity = machine.proactiveRefreshIdentity else { return }
    autoRefreshTask = Task(executorPreference: configuration.taskExecutor) { [weak self] in
      await self?.refreshAutomatically(of: identity)
    }
  }

  /// The proactive refresh loop of one identity: does what
  /// ``SessionStateMachine/nextProactiveStep(for:afterWaiting:now:random:)`` says until it says
  /// stop, or until the task is cancelled (its wait then throws).
  private func refreshAutomatically(of identity: SessionStateMachine.Identity) async {
    var afterWaiting = false
    while true {
      switch machine.nextProactiveStep(
        for: identity, afterWaiting: afterWaiting, now: now(), random: Double.random(in: 0..<1))
      {
      case .stop:
        return
      case .wait(let delay):
        do {
          try await clock.sleep(for: delay)
        } catch {
          return
        }
        afterWaiting = true
      case .refresh:
        // The machine learns the outcome (fresh, a failure in backoff, or the end).
        _ = try? await refreshFlight.run { [self] in try await refreshSession() }
        afterWaiting = false
      }
    }
  }
}
