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
    if case .signedIn(let user, _) = committed { return user }
    do {
      return try await restoreFlight.run { [self] in try await restore() }
    } catch {
      throw AuthError.wrapping(error)
    }
  }

  /// The one restore that concurrent callers share.
  private func restore() async throws -> User? {
    if case .signedIn(let user, _) = committed { return user }
    // `restoring` is only ever the first state: a restore after the launch settled (a retry
    // after an unreadable store, or one the app calls after its first sign-in attempt) reads
    // the store again without showing it.
    let settled = hasReadStore && committed != .restoring
    hasReadStore = true
    let mine = ticket
    if settled {
      await publish(StoreUpdate(errorMessage: .clear))
    } else {
      committed = .restoring
      await publish(StoreUpdate(state: committedStateToShow, errorMessage: .clear))
    }
    let stored: StoredSession?
    do {
      stored = try store.load()
    } catch {
      let error = AuthError.wrapping(error)
      guard mine == ticket else { return session?.user }
      committed = .signedOut(.storageUnreadable)
      await publish(
        StoreUpdate(
          state: committedStateToShow, event: .failed(error), errorMessage: .set(error.message)))
      await publish(StoreUpdate(event: .initialState(committed)))
      throw error
    }
    guard mine == ticket else { return session?.user }
    guard let stored else {
      committed = .signedOut(.initial)
      await publish(StoreUpdate(state: committedStateToShow, event: .initialState(committed)))
      return nil
    }
    if hasTimeLeft(stored) {
      adopt(stored, health: .fresh)
      await publish(
        StoreUpdate(
          state: committedStateToShow, event: .initialState(committed),
          idToken: .set(stored.idToken)))
      return stored.user
    }
    epoch &+= 1
    session = stored
    let identity = epoch
    do {
      _ = try await withTimeout(configuration.restoreDeadline, clock: clock) { [self] in
        try await refreshFlight.run { [self] in try await refreshSession() }
      }
    } catch {
      // refreshSession has already published what a network or terminal failure means; the
      // deadline and cancellation are settled below.
    }
    // A sign-in or sign-out started meanwhile owns the outcome.
    guard mine == ticket else { return session?.user }
    if case .signedIn(let user, .fresh) = committed {
      startAutomaticRefresh()
      await publish(StoreUpdate(event: .initialState(committed)))
      return user
    }
    guard identity == epoch, let session else {
      // A terminal failure signed the user out and cleared the store.
      await publish(StoreUpdate(event: .initialState(committed)))
      return nil
    }
    committed = .signedIn(session.user, .stale)
    startAutomaticRefresh(afterFailures: 1)
    await publish(
      StoreUpdate(
        state: committedStateToShow, event: .initialState(committed),
        idToken: .set(session.idToken)))
    return session.user
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
    guard !hasReadStore else { return }
    hasReadStore = true
    guard committed == .restoring else { return }
    do {
      if let stored = try store.load() {
        adopt(stored, health: hasTimeLeft(stored) ? .fresh : .stale)
      } else {
        committed = .signedOut(.initial)
      }
    } catch {
      launchError = AuthError.wrapping(error)
      committed = .signedOut(.storageUnreadable)
    }
  }

  /// Shows the state ``settleLaunch()`` settled on, with its `initialState` event, when the
  /// screen still shows `restoring` and no sign-in owns it.
  func publishSettledLaunch() async {
    guard lastPublished == .restoring, committed != .restoring, activeSignIn == nil else { return }
    let error = launchError
    launchError = nil
    await publish(
      StoreUpdate(
        state: committed, event: .initialState(committed), errorMessage: error.map { .set($0.message) } ?? .keep,
        idToken: session.map { .set($0.idToken) } ?? .keep))
  }
}

extension Auth {
  /// Restores the previous sign-in and, in parallel in the same task group and under the same
  /// ``AuthConfiguration/restoreDeadline``, the provider-side sessions of `providers` (such as
  /// Google's refresh token). A provider that fails or runs out of time is left signed out at
  /// its IdP; the backend session is unaffected. The provider the restored session was signed
  /// in with is asked to sign out again on ``signOut()``.
  ///
  /// - Cancellation: cancels the backend restore and every provider restore.
  /// - Returns: what ``restorePreviousSignIn()`` returns.
  public func restorePreviousSignIn(alongWith providers: [any RestorableSignInProvider]) async throws -> User? {
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
    return user
  }
}
