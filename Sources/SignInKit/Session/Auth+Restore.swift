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
  /// Publishes ``AuthState/restoring`` and reads the store. Before anything of a stored session
  /// is shown, the identity provider it depends on is asked whether it still authorizes the user
  /// (``AuthConfiguration/credentialStateSources``; Sign in with Apple's credential state by
  /// default on Apple platforms): revoked or not found goes from `restoring` straight to
  /// `signedOut(.credentialRevoked)`, transferred to `signedOut(.credentialTransferred)`, and
  /// the store is cleared; a check that fails or runs out of the deadline keeps the session.
  /// With a session whose ID token has more than the refresh lead time left, it then publishes
  /// `signedIn(user, .fresh)`, with no network to the backend. Otherwise it refreshes inside a
  /// task group under what the credential check left of ``AuthConfiguration/restoreDeadline``:
  /// success gives `.fresh`; a network failure, the deadline or cancellation gives
  /// `signedIn(user, .stale)` (offline is still signed in, and a retry is scheduled); a terminal
  /// error gives `signedOut(reason)` and clears the store.
  ///
  /// Concurrent calls share one restore. A call when a user is already signed in returns that
  /// user. A sign-in or sign-out started meanwhile wins: the restore then changes nothing.
  ///
  /// - Returns: the restored user, or `nil` when nothing was stored or the session ended.
  /// - Throws: ``AuthError/Code/storage`` when the stored session is unreadable (it is moved
  ///   aside, not deleted; the state becomes `signedOut(.storageUnreadable)`);
  ///   ``AuthError/Code/cancelled`` when the calling task is cancelled.
  public func restorePreviousSignIn() async throws -> User? {
    if let user = machine.signedInUser {
      // Signed in by work still publishing (another process's session, adopted while that
      // work waits on the store): the user is returned once ``currentUser`` shows it.
      await stateStore.drain()
      return user
    }
    do {
      return try await restoreFlight.run { [self] in try await restore() }
    } catch {
      throw AuthError.wrapping(error)
    }
  }

  /// The one restore that concurrent callers share: does what the machine says
  /// (``SessionStateMachine/RestoreStep``) until it says the restore is over.
  ///
  /// The credential checks and the launch refresh share ``AuthConfiguration/restoreDeadline``:
  /// the checks go first, so a refused session's refresh token is never spent and nothing of it
  /// is shown.
  private func restore() async throws -> User? {
    var (attempt, step) = machine.restoreStarted(checking: Set(credentialChecks.keys))
    var remaining = Self.countdown(from: configuration.restoreDeadline, on: clock)
    var waitsForUnlock = false
    while true {
      switch step {
      case .read(let effects):
        await perform(effects)
        var read = readStore()
        if case .unreadable(let error) = read, await waitUntilReadable(after: error) {
          read = readStore()
          // The deadline is the refresh's: the wait for the unlock does not count.
          remaining = Self.countdown(from: configuration.restoreDeadline, on: clock)
        } else if case .unreadable = read {
          // Not locked, or still locked at the deadline: settle now, and restore at the unlock.
          waitsForUnlock = true
        }
        step = machine.restoreRead(&attempt, read)
      case .checkCredential(let provider, let rawID):
        let check = credentialChecks[provider]
        let state = try? await withTimeout(remaining(), clock: clock) { try await check?.state(rawID) }
        step = machine.restoreCredentialAnswered(&attempt, state ?? nil)
      case .refreshing:
        // refreshSession hands a network or terminal failure to the machine; the deadline and
        // cancellation are settled by the restore's end.
        _ = try? await withTimeout(remaining(), clock: clock) { [self] in
          try await refreshFlight.run { [self] in try await refreshSession() }
        }
        step = machine.restoreRefreshEnded(attempt)
      case .finished(let user, let effects):
        await perform(effects)
        watchCredentialRevocations()
        followStoreChanges()
        return user
      case .failed(let error, let effects):
        await perform(effects)
        followStoreChanges()
        if waitsForUnlock { restoreWhenReadable() }
        throw error
      }
    }
  }

  /// Waits, still `restoring` and saying why in ``AuthStateStore/errorMessage``, for a store that
  /// could not be read because the device is locked, up to ``AuthConfiguration/unlockWait``.
  /// `true` once it can be read; `false` at once for any other failure, and at the deadline.
  private func waitUntilReadable(after error: AuthError) async -> Bool {
    let store = store
    await perform(machine.waitingForStorage(error.message))
    let readable =
      (try? await withTimeout(configuration.unlockWait, clock: clock) { await store.waitUntilReadable() }) ?? false
    if readable { await perform(machine.storageWaitEnded()) }
    return readable
  }

  /// After a launch that settled unreadable because the store was locked: restores the session
  /// as soon as the store can be read, as if another process had just stored it. The task ends
  /// at ``shutdown()``.
  private func restoreWhenReadable() {
    guard unlockTask == nil, machine.startsBackgroundWork else { return }
    let store = store
    unlockTask = Task(executorPreference: configuration.taskExecutor) { [weak self] in
      // One try after the unlock: a store still unreadable then is the next restore's to report.
      guard await store.waitUntilReadable(), !Task.isCancelled else { return }
      await self?.storeChanged()
    }
  }

  /// How long is left of `duration` from now on `clock`, each time it is called (never less than
  /// zero).
  private static func countdown<C: Clock<Duration>>(from duration: Duration, on clock: C) -> @Sendable () -> Duration {
    let end = clock.now.advanced(by: duration)
    return { max(.zero, clock.now.duration(to: end)) }
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
    followStoreChanges()
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
  /// Each provider that can tell (``AppleProvider`` with a credential-state source) takes the
  /// place of ``AuthConfiguration/credentialStateSources`` for its provider in the restore's
  /// credential check (see ``restorePreviousSignIn()``); where it cannot tell, the configured
  /// source is asked. From then on until ``shutdown()``, each revocation a provider or source
  /// announces (Apple's `credentialRevokedNotification`) makes `Auth` ask again for whoever is
  /// signed in then. When a user was already signed in before this call, the providers are asked
  /// after it, under a deadline of the same length.
  ///
  /// - Cancellation: cancels the backend restore, every provider restore and the credential check.
  /// - Returns: what ``restorePreviousSignIn()`` returns, or `nil` when the credential check
  ///   signed the user out.
  public func restorePreviousSignIn(alongWith providers: [any RestorableSignInProvider]) async throws -> User? {
    guard !providers.isEmpty else { return try await restorePreviousSignIn() }
    let wasSignedIn = machine.signedInUser != nil
    for provider in providers {
      let id = await provider.id
      credentialChecks[id] = CredentialCheck(
        provider: provider, beneath: configuration.credentialStateSources[id].map(CredentialCheck.init(source:)))
    }
    credentialWatchTask?.cancel()
    credentialWatchTask = nil
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
    var byID: [ProviderID: any SignInProvider] = [:]
    for provider in providers { byID[await provider.id] = provider }
    machine.providersRestored(byID)
    watchCredentialRevocations()
    guard user != nil else { return nil }
    if wasSignedIn {
      // Signed in before this call, so its restore asked nobody: ask now.
      for provider in providers {
        let id = await provider.id
        _ = try? await withTimeout(deadline, clock: clock) { try await self.checkCredentialState(of: id) }
      }
    }
    return machine.signedInUser
  }

  /// Asks the check for `providerID` whether it still authorizes the signed-in user, and signs
  /// out when ``SessionStateMachine/signOutReason(for:of:session:)`` says the answer ends the
  /// session. A session that changed while the provider answered is left alone.
  func checkCredentialState(of providerID: ProviderID) async throws {
    guard let check = credentialChecks[providerID], let session, let identity = machine.identity,
      let link = session.user.providers.first(where: { $0.providerID == providerID })
    else { return }
    let state = try await check.state(link.rawID)
    guard let reason = machine.credentialAnswered(state, by: providerID, about: identity) else { return }
    try await endSession(reason, byUser: false)
  }

  /// Starts, once until ``shutdown()``, the task that listens to every credential check's
  /// revocations; each one checks the signed-in user's credential state again.
  func watchCredentialRevocations() {
    guard credentialWatchTask == nil, !credentialChecks.isEmpty, machine.startsBackgroundWork else { return }
    let checks = credentialChecks
    credentialWatchTask = Task(executorPreference: configuration.taskExecutor) { [weak self] in
      await withTaskGroup(of: Void.self) { group in
        for (provider, check) in checks {
          group.addTask {
            for await _ in check.revocations() {
              try? await self?.checkCredentialState(of: provider)
            }
          }
        }
      }
    }
  }
}
