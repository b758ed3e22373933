/// The session's rules, in one place: what each thing that happens to the session does to the
/// state, and what ``Auth`` must then do.
///
/// `Auth` owns one and does only the I/O around it: it reads and writes the ``SessionStore``,
/// calls the backend, and performs the ``Action`` each event returns (publish updates in order,
/// start or stop the proactive refresh, cancel the refresh in flight). An event about work that
/// was overtaken returns no action (or `nil`), and `Auth` drops the late result.
///
/// The rules it keeps:
/// - **Persist first, publish second.** The events that show a session (``signInCommitted(_:_:isNewUser:)``,
///   ``refreshSucceeded(_:_:)``, ``accountChanged(_:_:changed:tokensReplaced:)``) are called only
///   after `Auth` stored it.
/// - **Last started wins.** A sign-in or user sign-out takes a new ticket; a sign-in whose ticket is
///   no longer the newest cannot commit. The newest sign-in in flight owns the screen (it shows
///   `signingIn`): background changes update the state beneath it without showing it, and its end
///   shows that state.
/// - **One identity at a time.** Every change of signed-in identity starts a new ``Identity``; a
///   refresh or account change that began under another identity is dropped.
/// - **`restoring` comes only first**, and is always followed by a settled state: the first read
///   of the store, whoever makes it, settles it, and a restore overtaken by a sign-in still
///   settles what lies beneath that sign-in.
/// - **Nothing after shutdown**: no update is published and no refresh is scheduled.
/// - A state equal to the one shown last is not sent again.
/// - **Busy while the app waits**: the store is busy from the start of the first operation the
///   app started to the end of the last (``operationStarted()``, ``operationEnded(failure:)``),
///   and a failure is recorded once, when its operation ends.
///
/// - Concurrency: a value type, owned and mutated by one `Auth` actor.
struct SessionStateMachine {
  /// Where the session is.
  private indirect enum Phase {
    /// The launch has not settled; `session` is the stored one while its refresh runs.
    case restoring(StoredSession?)
    case signedOut(SignOutReason)
    /// The newest sign-in is in flight and owns the screen; `beneath` is the settled phase.
    case signingIn(ProviderID, ticket: UInt64, beneath: Phase)
    case signedIn(StoredSession, SessionHealth)

    /// The state this phase shows.
    var state: AuthState {
      switch self {
      case .restoring: .restoring
      case .signedOut(let reason): .signedOut(reason)
      case .signingIn(let provider, _, _): .signingIn(provider)
      case .signedIn(let session, let health): .signedIn(session.user, health)
      }
    }
  }

  /// What `Auth` does after an event, in this order: cancel the refresh in flight, change the
  /// proactive refresh task, then publish `updates` in order and wait until they are visible.
  struct Action {
    enum Refresh: Equatable {
      case keep
      case stop
      /// Replace the proactive refresh task with one for the current identity; `afterFailures`
      /// greater than zero starts in backoff.
      case start(afterFailures: Int)
    }

    var cancelsRefreshInFlight = false
    var refresh = Refresh.keep
    var updates: [StoreUpdate] = []
  }

  /// The signed-in identity an operation started under.
  struct Identity: Equatable, Sendable {
    fileprivate let value: UInt64
  }

  /// A sign-in in flight.
  struct SignInAttempt: Sendable {
    fileprivate let value: UInt64
  }

  /// A restore in flight.
  struct RestoreAttempt: Sendable {
    fileprivate let value: UInt64
    fileprivate var identity: Identity?
  }

  /// A refresh in flight: the identity it is for, the token it spends, and the health it marked
  /// as `.refreshing` (to put back if it is cancelled).
  struct RefreshAttempt: Sendable {
    let identity: Identity
    let refreshToken: String
    fileprivate let markedFrom: SessionHealth?
  }

  /// What one read of the store found.
  enum StoreRead {
    case nothing
    /// `isFresh`: the ID token has more than the refresh lead time left.
    case session(StoredSession, isFresh: Bool)
    case unreadable(AuthError)
  }

  enum RestoreStart {
    /// A user is signed in already: the restore returns them and changes nothing.
    case signedIn(User)
    /// Read the store, after performing the action.
    case read(RestoreAttempt, Action)
  }

  enum RestoreStep {
    /// The restore is over: perform the action and return the user.
    case finished(User?, Action)
    /// The store is unreadable: perform the action, then throw.
    case failed(AuthError, Action)
    /// The stored session needs a refresh, under the restore deadline; then call
    /// ``restoreRefreshEnded(_:)``.
    case refreshing
  }

  enum RefreshFailure {
    /// The identity changed meanwhile: rethrow, touching nothing.
    case dropped
    /// A terminal failure: end the session with this reason (clearing the store).
    case endsSession(SignOutReason)
    case handled(Action)
  }

  private var phase = Phase.restoring(nil)
  /// How many operations the app started are in flight; the store is busy while any is.
  private var busyOperations = 0
  /// The newest sign-in or user sign-out.
  private var ticket: UInt64 = 0
  /// Bumped whenever the signed-in identity changes.
  private var epoch: UInt64 = 0
  /// The state the store was last given.
  private var shown = AuthState.restoring
  private var hasReadStore = false
  /// The storage error the launch read hit, until a settled state is shown with it.
  private var launchError: AuthError?
  private(set) var isShutDown = false

  // MARK: - Reading

  /// The stored session of the current identity, if any (also while a launch refresh runs).
  var session: StoredSession? { Self.session(in: phase) }

  /// The current identity.
  var identity: Identity { Identity(value: epoch) }

  func isCurrent(_ identity: Identity) -> Bool { identity.value == epoch }

  /// Whether an identity provider's credential state for `session`'s user ends the session, and
  /// why. Only a provider the session depends on can end it: the one it signed in with, or the
  /// account's only sign-in method. Then ``ProviderCredentialState/revoked`` and
  /// ``ProviderCredentialState/transferred`` end it; ``ProviderCredentialState/notFound`` does not
  /// (the user may never have used the provider on this Apple ID), nor does an unknown state.
  ///
  /// | state | session signed in with the provider, or it is the only method | otherwise |
  /// |---|---|---|
  /// | authorized, notFound, unknown | keep | keep |
  /// | revoked | sign out: ``SignOutReason/credentialRevoked(_:)`` | keep |
  /// | transferred | sign out: ``SignOutReason/credentialTransferred(_:)`` | keep |
  static func signOutReason(
    for state: ProviderCredentialState?, of provider: ProviderID, session: StoredSession
  ) -> SignOutReason? {
    let methods = session.user.providers.map(\.providerID).filter { $0 != .anonymous }
    guard session.signInProvider == provider || methods == [provider] else { return nil }
    switch state {
    case .revoked: return .credentialRevoked(provider)
    case .transferred: return .credentialTransferred(provider)
    case .authorized, .notFound, nil: return nil
    }
  }

  /// The signed-in user of the settled phase.
  var signedInUser: User? {
    if case .signedIn(let session, _) = settled { return session.user }
    return nil
  }

  /// The health of the settled signed-in session, if any.
  private var health: SessionHealth? {
    if case .signedIn(_, let health) = settled { return health }
    return nil
  }

  // MARK: - Launch

  /// Whether this is the first read of the store; a `true` answer is given once.
  mutating func beginLaunchRead() -> Bool {
    guard !hasReadStore, !isShutDown else { return false }
    hasReadStore = true
    return true
  }

  /// The first call's read of the store settled the launch. Nothing is shown yet: the call shows
  /// its own states, and ``showSettledLaunch()`` shows this one if nothing else did.
  mutating func launchRead(_ read: StoreRead) -> Action {
    guard case .restoring = settled else { return Action() }
    switch read {
    case .nothing:
      settled = .signedOut(.initial)
      return Action()
    case .session(let stored, let isFresh):
      return adopt(stored, health: isFresh ? .fresh : .stale)
    case .unreadable(let error):
      launchError = error
      settled = .signedOut(.storageUnreadable)
      return Action()
    }
  }

  /// Shows the settled state with its `initialState` event when the screen still shows the
  /// launch (`restoring`, or the `signingIn` of a sign-in that failed before the launch settled)
  /// and no sign-in owns it.
  mutating func showSettledLaunch() -> Action {
    guard let state = stateToShow, state != .restoring else { return Action() }
    switch shown {
    case .restoring, .signingIn: break
    case .signedOut, .signedIn: return Action()
    }
    let error = launchError
    launchError = nil
    return Action(updates: [
      update(
        state: state, event: .initialState(state),
        errorMessage: error.map { .set($0.message) } ?? .keep,
        idToken: session.map { .set($0.idToken) } ?? .keep)
    ])
  }

  // MARK: - Restore

  /// A restore starts. Before the launch settled it shows `restoring`; after, it reads the store
  /// again without showing it.
  mutating func restoreStarted() -> RestoreStart {
    if let user = signedInUser { return .signedIn(user) }
    hasReadStore = true
    let attempt = RestoreAttempt(value: ticket, identity: nil)
    if case .restoring = settled {
      return .read(attempt, Action(updates: [update(state: stateToShow, errorMessage: .clear)]))
    }
    return .read(attempt, Action(updates: [update(errorMessage: .clear)]))
  }

  /// The restore read the store.
  mutating func restoreRead(_ attempt: inout RestoreAttempt, _ read: StoreRead) -> RestoreStep {
    guard attempt.value == ticket else {
      // A sign-in or sign-out started meanwhile owns the outcome; the read still settles a
      // launch that nothing else settled, beneath a sign-in in flight.
      var action = launchRead(read)
      action.append(showSettledLaunch())
      return .finished(session?.user, action)
    }
    switch read {
    case .unreadable(let error):
      settled = .signedOut(.storageUnreadable)
      launchError = nil
      return .failed(
        error,
        Action(updates: [
          update(state: stateToShow, event: .failed(error), errorMessage: .set(error.message)),
          update(event: .initialState(settled.state)),
        ]))
    case .nothing:
      settled = .signedOut(.initial)
      return .finished(nil, Action(updates: [update(state: stateToShow, event: .initialState(settled.state))]))
    case .session(let stored, isFresh: true):
      var action = adopt(stored, health: .fresh)
      action.updates.append(
        update(
          state: stateToShow, event: .initialState(settled.state), idToken: .set(stored.idToken)))
      return .finished(stored.user, action)
    case .session(let stored, isFresh: false):
      epoch &+= 1
      settled = .restoring(stored)
      attempt.identity = identity
      return .refreshing
    }
  }

  /// The launch refresh of a restore ended (succeeded, failed, or ran out of time).
  mutating func restoreRefreshEnded(_ attempt: RestoreAttempt) -> (User?, Action) {
    let isOwn = attempt.identity.map(isCurrent) ?? false
    guard attempt.value == ticket else {
      // Overtaken by a sign-in or sign-out: settle only what still waits beneath a sign-in.
      guard isOwn else { return (session?.user, Action()) }
      if case .restoring(let stored?) = settled {
        settled = .signedIn(stored, .stale)
        var action = Action(refresh: .start(afterFailures: 1))
        action.append(showSettledLaunch())
        return (stored.user, action)
      }
      return (session?.user, Action(refresh: .start(afterFailures: health == .fresh ? 0 : 1)))
    }
    if case .signedIn(let current, .fresh) = settled, isOwn {
      return (
        current.user,
        Action(refresh: .start(afterFailures: 0), updates: [update(event: .initialState(settled.state))])
      )
    }
    guard isOwn, let current = session else {
      // A terminal failure ended the session (and cleared the store).
      return (nil, Action(updates: [update(event: .initialState(settled.state))]))
    }
    settled = .signedIn(current, health.flatMap { $0 == .refreshing ? nil : $0 } ?? .stale)
    return (
      current.user,
      Action(
        refresh: .start(afterFailures: 1),
        updates: [
          update(
            state: stateToShow, event: .initialState(settled.state), idToken: .set(current.idToken))
        ])
    )
  }

  // MARK: - Sign-in and sign-out

  /// A sign-in starts: it takes the newest ticket and shows `signingIn(provider)`.
  mutating func signInStarted(_ provider: ProviderID) -> (SignInAttempt, Action) {
    ticket &+= 1
    phase = .signingIn(provider, ticket: ticket, beneath: settled)
    return (SignInAttempt(value: ticket), Action(updates: [update(state: .signingIn(provider))]))
  }

  /// Whether `attempt` is still the newest sign-in or sign-out, so it may store its session.
  func mayCommit(_ attempt: SignInAttempt) -> Bool { attempt.value == ticket && !isShutDown }

  /// The sign-in's session is stored: it becomes the signed-in one and is shown.
  mutating func signInCommitted(_ attempt: SignInAttempt, _ stored: StoredSession, isNewUser: Bool)
    -> Action
  {
    guard mayCommit(attempt) else { return Action() }
    phase = settled
    var action = adopt(stored, health: .fresh)
    action.updates.append(
      update(
        state: stateToShow, event: .signedIn(stored.user, isNewUser: isNewUser),
        idToken: .set(stored.idToken)))
    return action
  }

  /// The sign-in failed or was cancelled: if it still owns the screen, the settled state is
  /// shown again. While the launch has not settled yet (a restore's refresh is still running)
  /// the screen keeps `signingIn` rather than go back to `restoring`; the restore shows where
  /// it settles.
  mutating func signInFailed(_ attempt: SignInAttempt) -> Action {
    guard attempt.value == ticket, case .signingIn = phase else { return Action() }
    phase = settled
    if case .restoring = settled { return Action() }
    return Action(updates: [update(state: settled.state)])
  }

  /// The session ended; the store is already cleared (or was by someone else).
  ///
  /// A sign-out the user asked for is the newest operation: it takes a ticket (sign-ins in flight
  /// are dropped) and is shown at once. One caused by the backend only ends the current identity;
  /// a sign-in in flight goes on and shows its own result.
  mutating func sessionEnded(_ reason: SignOutReason, byUser: Bool) -> Action {
    if byUser {
      ticket &+= 1
      phase = settled
    }
    epoch &+= 1
    settled = .signedOut(reason)
    return Action(
      cancelsRefreshInFlight: true, refresh: .stop,
      updates: [update(state: stateToShow, event: .signedOut(reason), idToken: .clear)])
  }

  /// Another process cleared the store or replaced its session: this `Auth` signs out too.
  mutating func storeClearedElsewhere() -> Action {
    sessionEnded(.storageCleared, byUser: false)
  }

  // MARK: - Refresh

  /// A token refresh starts; `nil` when there is no session. A signed-in state is marked
  /// `.refreshing`.
  mutating func refreshStarted() -> (RefreshAttempt, Action)? {
    guard let current = session else { return nil }
    let before = health
    var action = Action()
    if before != nil {
      settled = .signedIn(current, .refreshing)
      action.updates.append(update(state: stateToShow))
    }
    return (RefreshAttempt(identity: identity, refreshToken: current.refreshToken, markedFrom: before), action)
  }

  /// The session the refresh's new tokens go into, if its identity is still the current one.
  func sessionToRefresh(_ attempt: RefreshAttempt) -> StoredSession? {
    isCurrent(attempt.identity) ? session : nil
  }

  /// The refreshed session is stored: it is shown `.fresh` with ``AuthEvent/tokenRefreshed``.
  mutating func refreshSucceeded(_ attempt: RefreshAttempt, _ stored: StoredSession) -> Action {
    guard isCurrent(attempt.identity) else { return Action() }
    settled = .signedIn(stored, .fresh)
    return Action(updates: [update(state: stateToShow, event: .tokenRefreshed, idToken: .set(stored.idToken))])
  }

  /// The refresh failed. Terminal errors end the session; cancellation (or a newer operation) puts back only this
  /// refresh's own mark (whoever cancelled it may have settled the state already); a storage
  /// error keeps the session as `.unsaved` with the store's message; anything else keeps it as
  /// `.stale`.
  mutating func refreshFailed(_ attempt: RefreshAttempt, _ error: AuthError) -> RefreshFailure {
    guard isCurrent(attempt.identity), let current = session else { return .dropped }
    if error.code.endsSession { return .endsSession(error.code.signOutReason) }
    if error.code.isCancellation {
      guard let before = attempt.markedFrom, health == .refreshing else { return .handled(Action()) }
      settled = .signedIn(current, before)
      return .handled(Action(updates: [update(state: stateToShow)]))
    }
    let isStorage = error.code == .storage
    settled = .signedIn(current, isStorage ? .unsaved : .stale)
    return .handled(
      Action(updates: [
        update(
          state: stateToShow, event: .failed(error),
          errorMessage: isStorage ? .set(error.message) : .keep)
      ]))
  }

  // MARK: - Account changes

  /// A profile, email, password or link change is stored; `nil` when the identity changed
  /// meanwhile (the caller drops its result).
  mutating func accountChanged(
    _ identity: Identity, _ stored: StoredSession, changed: Bool, tokensReplaced: Bool
  ) -> Action? {
    guard isCurrent(identity), session != nil else { return nil }
    settled = .signedIn(stored, tokensReplaced ? .fresh : (health ?? .fresh))
    return Action(updates: [
      update(
        state: stateToShow, event: changed || tokensReplaced ? .userUpdated(stored.user) : nil,
        idToken: tokensReplaced ? .set(stored.idToken) : .keep)
    ])
  }

  // MARK: - Operations the app started

  /// An operation the app started begins: the store shows busy and forgets the last error.
  mutating func operationStarted() -> Action {
    busyOperations += 1
    return Action(updates: [StoreUpdate(errorMessage: .clear, isBusy: true)])
  }

  /// An operation the app started ended, with `failure` when it failed: the launch it settled is
  /// shown if nothing else showed it, the failure is recorded (a cancellation or a sign-in that
  /// waits for its second factor is not one), and the store stops being busy once no other
  /// operation is in flight. The busy flag is cleared even after shutdown, so a screen does not
  /// spin forever.
  mutating func operationEnded(failure: AuthError?) -> Action {
    busyOperations -= 1
    var action = showSettledLaunch()
    var ended = StoreUpdate(isBusy: busyOperations > 0)
    if let failure, !failure.code.isCancellation, failure.code != .secondFactorRequired {
      ended.event = .failed(failure)
      ended.errorMessage = .set(failure.message)
    }
    action.updates.append(ended)
    return action
  }

  // MARK: - Shutdown

  /// `Auth` shut down: the refresh work stops and nothing is published any more.
  mutating func shutDown() -> Action {
    isShutDown = true
    return Action(cancelsRefreshInFlight: true, refresh: .stop)
  }

  // MARK: - Private

  /// Makes `stored` the signed-in session with a new identity and restarts proactive refresh.
  private mutating func adopt(_ stored: StoredSession, health: SessionHealth) -> Action {
    epoch &+= 1
    settled = .signedIn(stored, health)
    return Action(cancelsRefreshInFlight: true, refresh: .start(afterFailures: 0))
  }

  /// The phase beneath a sign-in in flight, or the phase itself.
  private var settled: Phase {
    get {
      if case .signingIn(_, _, let beneath) = phase { return beneath }
      return phase
    }
    set {
      if case .signingIn(let provider, let ticket, _) = phase {
        phase = .signingIn(provider, ticket: ticket, beneath: newValue)
      } else {
        phase = newValue
      }
    }
  }

  /// The settled state when no sign-in owns the screen, else `nil`.
  private var stateToShow: AuthState? {
    if case .signingIn = phase { return nil }
    return phase.state
  }

  private static func session(in phase: Phase) -> StoredSession? {
    switch phase {
    case .restoring(let stored): stored
    case .signedOut: nil
    case .signingIn(_, _, let beneath): session(in: beneath)
    case .signedIn(let stored, _): stored
    }
  }

  /// One update for the store, its state left out when it is the one shown already; after
  /// shutdown, an empty one.
  private mutating func update(
    state: AuthState? = nil, event: AuthEvent? = nil, errorMessage: FieldChange<String> = .keep,
    idToken: FieldChange<String> = .keep
  ) -> StoreUpdate {
    guard !isShutDown else { return StoreUpdate() }
    return StoreUpdate(
      state: dedupe(state), event: event, errorMessage: errorMessage, idToken: idToken)
  }

  private mutating func dedupe(_ state: AuthState?) -> AuthState? {
    guard let state, state != shown else { return nil }
    shown = state
    return state
  }
}

extension SessionStateMachine.Action {
  /// Adds `other`'s work after this action's.
  mutating func append(_ other: Self) {
    cancelsRefreshInFlight = cancelsRefreshInFlight || other.cancelsRefreshInFlight
    if other.refresh != .keep { refresh = other.refresh }
    updates += other.updates
  }
}
