import SignInConcurrency

extension Auth {
  /// Whether a previous sign-in is stored. Cheap: it only looks at the store, never at the
  /// network, and never changes state. A stored session that turns out unreadable counts as
  /// present; ``restorePreviousSignIn()`` reports it.
  public func hasPreviousSignIn() -> Bool {
    session != nil || store.containsSession()
  }

  /// Restores the stored session at launch, and always ends in a definite state.
  ///
  /// Publishes ``AuthState/restoring`` and reads the store. With a session whose ID token has
  /// more than the refresh lead time left, it publishes `signedIn(user, .fresh)` at once, with no
  /// network. Otherwise it refreshes inside a task group under
  /// ``AuthConfiguration/restoreDeadline``: success gives `.fresh`; a network failure, the
  /// deadline or cancellation gives `signedIn(user, .stale)` (offline is still signed in, and a
  /// retry is scheduled); a terminal error gives `signedOut(reason)` and clears the store.
  ///
  /// Concurrent calls share one restore. A call when a user is already signed in returns that
  /// user. A sign-in or sign-out started meanwhile wins: the restore then changes nothing.
  ///
  /// - Returns: the restored user, or `nil` when nothing was stored or the session ended.
  /// - Throws: ``AuthError/Code/storage`` when the stored session is unreadable (it is moved
  ///   aside, not deleted; the state becomes `signedOut(.storageUnreadable)`);
  ///   ``AuthError/Code/cancelled`` when the calling task is cancelled.
  public func restorePreviousSignIn() async throws -> User? {
    if let user = machine.signedInUser { return user }
    do {
      return try await restoreFlight.run { [self] in try await restore() }
    } catch {
      throw AuthError.wrapping(error)
    }
  }

  /// The one restore that concurrent callers share.
  private func restore() async throws -> User? {
    var attempt: SessionStateMachine.RestoreAttempt
    switch machine.restoreStarted() {
    case .signedIn(let user):
      return user
    case .read(let started, let effects):
      attempt = started
      await perform(effects)
    }
    switch machine.restoreRead(&attempt, readStore()) {
    case .finished(let user, let effects):
      await perform(effects)
      return user
    case .failed(let error, let effects):
      await perform(effects)
      throw error
    case .refreshing:
      break
    }
    do {
      _ = try await withTimeout(configuration.restoreDeadline, clock: clock) { [self] in
        try await refreshFlight.run { [self] in try await refreshSession() }
      }
    } catch {
      // refreshSession has already handed a network or terminal failure to the machine; the
      // deadline and cancellation are settled by the restore's end.
    }
    let (user, effects) = machine.restoreRefreshEnded(attempt)
    await perform(effects)
    return user
  }

  /// Reads the stored session; never throws (an unreadable store is one of the outcomes).
  func readStore() -> SessionStateMachine.StoreRead {
    do {
      guard let stored = try store.load() else { return .nothing }
      // Another tenant's session is not this Auth's to restore; it stays where it is.
      try checkTenant(ofIDToken: stored.idToken)
      return .session(stored, isFresh: hasTimeLeft(stored))
    } catch {
      return .unreadable(AuthError.wrapping(error))
    }
  }
}

extension Auth {
  /// Reads the store once, for an app whose first call is not ``restorePreviousSignIn()`` (a
  /// sign-in, ``idToken(forceRefresh:)``, a sign-out…), so that the launch state settles
  /// however the app starts: a stored session becomes the signed-in one (`.fresh`, or `.stale`
  /// when its token needs a refresh, which the first token request or the refresh task makes),
  /// nothing stored is `signedOut(.initial)`, and an unreadable store is
  /// `signedOut(.storageUnreadable)` with its message. A failed first sign-in then shows
  /// `signedOut(.initial)` again instead of `restoring` for good.
  ///
  /// Synchronous and without network: the read happens before the call's first suspension, so
  /// concurrent first calls read once. It publishes nothing itself; the call publishes its own
  /// states, and ``publishSettledLaunch()`` shows the settled one if nothing else did.
  func settleLaunch() {
    guard machine.beginLaunchRead() else { return }
    // The launch read publishes nothing by itself: this only starts the refresh work an
    // adopted session needs.
    performWithoutPublishing(machine.launchRead(readStore()))
  }

  /// Shows the state ``settleLaunch()`` settled on, with its `initialState` event, when the
  /// screen still shows `restoring` and no sign-in owns it.
  func publishSettledLaunch() async {
    await perform(machine.showSettledLaunch())
  }
}

extension Auth {
  /// Restores the previous sign-in and, in parallel in the same task group and under the same
  /// ``AuthConfiguration/restoreDeadline``, the provider-side sessions of `providers` (such as
  /// Google's refresh token). A provider that fails or runs out of time is left signed out at
  /// its IdP; the backend session is unaffected. The provider the restored session was signed
  /// in with is asked to sign out again on ``signOut()``.
  ///
  /// Then each provider that can tell (``AppleProvider`` with a credential-state source) is asked
  /// whether it still authorizes the restored user, under a deadline of its own of the same
  /// length; a revoked or transferred credential the session depends on signs the user out with
  /// ``SignOutReason/credentialRevoked(_:)`` or ``SignOutReason/credentialTransferred(_:)``. A
  /// provider that cannot be asked (offline) or runs out of time keeps the session. From then on
  /// until ``shutdown()``, each revocation a provider announces (Apple's
  /// `credentialRevokedNotification`) makes `Auth` ask again for whoever is signed in then.
  ///
  /// - Cancellation: cancels the backend restore, every provider restore and the credential check.
  /// - Returns: what ``restorePreviousSignIn()`` returns, or `nil` when the credential check
  ///   signed the user out.
  public func restorePreviousSignIn(alongWith providers: [any RestorableSignInProvider]) async throws -> User? {
    guard !providers.isEmpty else { return try await restorePreviousSignIn() }
    let deadline = configuration.restoreDeadline
    let clock = clock
    let user = try await withThrowingTaskGroup(of: User?.self) { group in
      group.addTask { try await self.restorePreviousSignIn() }
      for provider in providers {
        group.addTask {
          _ = try? await withTimeout(deadline, clock: clock) { try await provider.restoreSession() }
          return nil
        }
      }
      var restored: User?
      while let result = try await group.next() { restored = restored ?? result }
      return restored
    }
    if let signedInWith = session?.signInProvider {
      for provider in providers where await provider.id == signedInWith { signedInProvider = provider }
    }
    watchCredentialRevocations(of: providers)
    guard user != nil else { return nil }
    for provider in providers {
      _ = try? await withTimeout(deadline, clock: clock) { try await self.checkCredentialState(of: provider) }
    }
    return machine.signedInUser
  }

  /// Asks `provider` whether it still authorizes the signed-in user, and signs out when
  /// ``SessionStateMachine/signOutReason(for:of:session:)`` says the answer ends the session. A
  /// session that changed while the provider answered is left alone.
  func checkCredentialState(of provider: any RestorableSignInProvider) async throws {
    let providerID = await provider.id
    guard let session, let identity = machine.identity,
      let link = session.user.providers.first(where: { $0.providerID == providerID })
    else { return }
    let state = try await provider.credentialState(forProviderUserID: link.rawID)
    guard machine.isCurrent(identity), let current = self.session,
      let reason = SessionStateMachine.signOutReason(for: state, of: providerID, session: current)
    else { return }
    signedInProvider = nil
    try await endSession(reason, byUser: false)
  }

  /// Replaces the task that listens to `providers`' credential revocations; each one checks the
  /// signed-in user's credential state again. Cancelled by ``shutdown()``.
  private func watchCredentialRevocations(of providers: [any RestorableSignInProvider]) {
    credentialWatchTask?.cancel()
    credentialWatchTask = Task(executorPreference: configuration.taskExecutor) { [weak self] in
      await withTaskGroup(of: Void.self) { group in
        for provider in providers {
          group.addTask {
            for await _ in provider.credentialRevocations {
              try? await self?.checkCredentialState(of: provider)
            }
          }
        }
      }
    }
  }
}
