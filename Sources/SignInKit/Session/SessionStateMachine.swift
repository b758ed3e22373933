import Foundation
import SignInConcurrency

/// The session's rules, in one place: what each thing that happens to the session does to the
/// state, and what ``Auth`` must then do.
///
/// `Auth` owns one and does only the I/O around it: it reads and writes the ``SessionStore``,
/// calls the backend, and performs the ``Effect``s each event returns, in order (cancel the
/// refresh in flight, stop or start the proactive refresh, publish an update). An event about
/// work that was overtaken returns no effects, or ``Verdict/superseded`` where the caller must
/// drop its result.
///
/// Everything the session is lives in one `Phase` value, so no pair of facts can disagree: the
/// sign-in that owns the screen is the `signingIn` case's, the identity an operation must still
/// match is the signed-in (or launch-refreshing) case's, whether the store was read is the
/// `restoring` case's ``Launch``, the launch's unshown storage error is the `signedOut` case's,
/// the provider to sign out of and the refreshes failed in a row are the signed-in case's (so
/// they end with the session), and shutdown wraps the phase it stopped in. Beside it are only
/// the screen (what the store was last given, and how many operations keep it busy), the order
/// of sign-ins and sign-outs (one ``LastStartedWins``), a counter that hands out identities, and
/// the ``RefreshSchedule`` the configuration set.
///
/// The rules it keeps:
/// - **Persist first, publish second.** The events that show a session (``signInCommitted(_:_:isNewUser:)``,
///   ``refreshSucceeded(_:_:)``, ``accountChanged(_:_:changed:tokensReplaced:)``) are called only
///   after `Auth` stored it.
/// - **Last started wins.** A sign-in or user sign-out is the newest; a sign-in that no longer
///   owns the `signingIn` phase cannot commit. The newest sign-in in flight owns the screen (it
///   shows `signingIn`): background changes update the state beneath it without showing it, and
///   its end shows that state.
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
  private typealias Phase = SessionPhase
  private typealias SignedIn = SessionPhase.SignedIn

  /// The signed-in identity an operation started under.
  struct Identity: Equatable, Sendable {
    fileprivate let value: UInt64
  }

  /// A sign-in in flight.
  struct SignInAttempt: Equatable, Sendable {
    fileprivate let ticket: LastStartedWins.Ticket
  }

  /// A restore in flight.
  struct RestoreAttempt: Sendable {
    /// The newest sign-in or user sign-out when it began.
    fileprivate let startedAfter: LastStartedWins.Ticket
    fileprivate var identity: Identity?
    /// The identity providers `Auth` can ask about a stored user.
    fileprivate let checkable: Set<ProviderID>
    /// The session read, while its providers are asked; `providers` are those still to ask.
    fileprivate var checking: (stored: StoredSession, isFresh: Bool, providers: [ProviderID])?
  }

  /// A refresh in flight: the identity it is for, the token it spends, and the health it marked
  /// as `.refreshing` (to put back if it is cancelled).
  struct RefreshAttempt: Sendable {
    let identity: Identity
    let refreshToken: String
    fileprivate let markedFrom: SessionHealth?
  }

  /// What the store was last given.
  private struct Screen {
    /// The state shown last; an equal one is not sent again.
    var state = AuthState.restoring
    /// How many operations the app started are in flight; the store is busy while any is.
    var busyOperations = 0
  }

  private var phase = Phase.restoring(.unread)
  private var screen = Screen()
  /// Orders sign-ins and user sign-outs: a sign-in commits only with the newest ticket, and a
  /// restore is overtaken once a newer one was handed out.
  private var signInsAndSignOuts = LastStartedWins()
  /// When tokens are refreshed ahead of expiry, and how failures back off.
  let schedule: RefreshSchedule

  init(schedule: RefreshSchedule = RefreshSchedule(AuthConfiguration())) {
    self.schedule = schedule
  }
  /// How many identities have been handed out; the newest is the next one's predecessor.
  private var identitiesHandedOut: UInt64 = 0

  // MARK: - Reading

  /// Whether ``shutDown()`` was called.
  var isShutDown: Bool {
    if case .shutDown = phase { return true }
    return false
  }

  /// The stored session of the current identity, if any (also while a launch refresh runs).
  var session: StoredSession? {
    switch settled {
    case .restoring(.refreshing(let stored, _)): stored
    case .signedIn(let signedIn): signedIn.session
    case .restoring, .signedOut, .signingIn, .shutDown: nil
    }
  }

  /// The identity of the current session; `nil` when there is none.
  var identity: Identity? {
    switch settled {
    case .restoring(.refreshing(_, let identity)): identity
    case .signedIn(let signedIn): signedIn.identity
    case .restoring, .signedOut, .signingIn, .shutDown: nil
    }
  }

  func isCurrent(_ identity: Identity) -> Bool { identity == self.identity }

  /// The stored session of `identity`, for an operation that started under it.
  ///
  /// - Throws: ``AuthError/Code/superseded`` when another identity (or none) is signed in now:
  ///   the operation must drop its result.
  func session(of identity: Identity) throws(AuthError) -> StoredSession {
    guard isCurrent(identity), let session else { throw AuthError.superseded }
    return session
  }

  /// Whether `error`, met by an operation of `identity`, ends the session, and why: a terminal
  /// error (``AuthError/Code/endsSession``) while that identity is still the signed-in one.
  func signOutReason(for error: AuthError, of identity: Identity) -> SignOutReason? {
    guard error.code.endsSession, isCurrent(identity) else { return nil }
    return error.code.signOutReason
  }

  /// The provider the signed-in session was signed in with, which a sign-out or an account
  /// deletion signs out of too (``Effect/signOutOfProvider(_:)``); `nil` once the session ended.
  var signedInProvider: (any SignInProvider)? {
    if case .signedIn(let signedIn) = settled { return signedIn.provider }
    return nil
  }

  /// The providers restored beside the session (``Auth/restorePreviousSignIn(alongWith:)``):
  /// the one whose id the session was signed in with becomes its provider, unless it has one.
  mutating func providersRestored(_ providers: [ProviderID: any SignInProvider]) {
    guard case .signedIn(var signedIn) = settled, signedIn.provider == nil,
      let provider = providers[signedIn.session.signInProvider]
    else { return }
    signedIn.provider = provider
    settled = .signedIn(signedIn)
  }

  /// The signed-in user of the settled phase.
  var signedInUser: User? {
    if case .signedIn(let signedIn) = settled { return signedIn.session.user }
    return nil
  }

  /// The health of the settled signed-in session, if any.
  private var health: SessionHealth? {
    if case .signedIn(let signedIn) = settled { return signedIn.health }
    return nil
  }

  // MARK: - Launch

  /// Whether this is the first read of the store; a `true` answer is given once.
  mutating func beginLaunchRead() -> Bool {
    guard !isShutDown, case .restoring(.unread) = settled else { return false }
    settled = .restoring(.reading)
    return true
  }

  /// The first call's read of the store settled the launch. Nothing is shown yet: the call shows
  /// its own states, and ``showSettledLaunch()`` shows this one if nothing else did.
  mutating func launchRead(_ read: StoreRead) -> [Effect] {
    guard case .restoring = settled else { return [] }
    switch read {
    case .nothing:
      settled = .signedOut(.initial, unshownError: nil)
      return []
    case .session(let stored, let isFresh):
      return adopt(stored, health: isFresh ? .fresh : .stale)
    case .refused(_, let reason):
      settled = .signedOut(reason, unshownError: nil)
      return [.clearStore]
    case .unreadable(let error):
      settled = .signedOut(.storageUnreadable, unshownError: error)
      return []
    }
  }

  /// Shows the settled state with its `initialState` event when the screen still shows the
  /// launch (`restoring`, or the `signingIn` of a sign-in that failed before the launch settled)
  /// and no sign-in owns it.
  mutating func showSettledLaunch() -> [Effect] {
    guard let state = stateToShow, state != .restoring else { return [] }
    switch screen.state {
    case .restoring, .signingIn: break
    case .signedOut, .signedIn: return []
    }
    var error: AuthError?
    if case .signedOut(let reason, let unshown?) = settled {
      error = unshown
      settled = .signedOut(reason, unshownError: nil)
    }
    return [
      publish(
        state: state, event: .initialState(state),
        errorMessage: error.map { .set($0.message) } ?? .keep,
        idToken: session.map { .set($0.idToken) } ?? .keep)
    ]
  }

  // MARK: - Restore

  /// A restore starts, able to ask the identity providers in `checkable` about a stored user.
  /// Before the launch settled it shows `restoring`; after, it reads the store again without
  /// showing it. A user signed in already is the restore's answer, and nothing changes.
  mutating func restoreStarted(checking checkable: Set<ProviderID>) -> (RestoreAttempt, RestoreStep) {
    let attempt = RestoreAttempt(startedAfter: signInsAndSignOuts.newest, identity: nil, checkable: checkable)
    if let user = signedInUser { return (attempt, .finished(user, [])) }
    guard case .restoring(let launch) = settled else {
      return (attempt, .read([publish(errorMessage: .clear)]))
    }
    if case .unread = launch, !isShutDown { settled = .restoring(.reading) }
    return (attempt, .read([publish(state: stateToShow, errorMessage: .clear)]))
  }

  /// The restore read the store. A session is first checked with the identity providers it
  /// depends on (``credentialChecks(for:)``) that `Auth` can ask, one at a time, so a refused
  /// session's refresh token is never spent and nothing of it is shown.
  mutating func restoreRead(_ attempt: inout RestoreAttempt, _ read: StoreRead) -> RestoreStep {
    if case .session(let stored, let isFresh) = read {
      let providers = Self.credentialChecks(for: stored).filter(attempt.checkable.contains)
      if !providers.isEmpty {
        attempt.checking = (stored, isFresh, providers)
        return Self.check(providers[0], of: stored)
      }
    }
    return restoreSettled(&attempt, read)
  }

  /// The identity provider the restore asked answered (`nil`: no answer in time): the session
  /// ends when ``signOutReason(for:of:session:)`` says so, and otherwise the next provider is
  /// asked, or the session is restored.
  mutating func restoreCredentialAnswered(
    _ attempt: inout RestoreAttempt, _ state: ProviderCredentialState?
  ) -> RestoreStep {
    guard var checking = attempt.checking, !checking.providers.isEmpty else {
      return .finished(session?.user, [])
    }
    let provider = checking.providers.removeFirst()
    attempt.checking = checking.providers.isEmpty ? nil : checking
    if let reason = Self.signOutReason(for: state, of: provider, session: checking.stored) {
      attempt.checking = nil
      return restoreSettled(&attempt, .refused(checking.stored, reason))
    }
    if let next = checking.providers.first { return Self.check(next, of: checking.stored) }
    return restoreSettled(&attempt, .session(checking.stored, isFresh: checking.isFresh))
  }

  /// What a restore's read (checked with the providers) comes to.
  private mutating func restoreSettled(_ attempt: inout RestoreAttempt, _ read: StoreRead) -> RestoreStep {
    guard !isOvertaken(attempt) else {
      // A sign-in or sign-out started meanwhile owns the outcome; the read still settles a
      // launch that nothing else settled, beneath a sign-in in flight.
      return .finished(session?.user, launchRead(read) + showSettledLaunch())
    }
    switch read {
    case .unreadable(let error):
      settled = .signedOut(.storageUnreadable, unshownError: nil)
      return .failed(
        error,
        [
          publish(state: stateToShow, event: .failed(error), errorMessage: .set(error.message)),
          publish(event: .initialState(settled.state)),
        ])
    case .nothing:
      settled = .signedOut(.initial, unshownError: nil)
      return .finished(nil, [publish(state: stateToShow, event: .initialState(settled.state))])
    case .refused(_, let reason):
      // Straight from `restoring`: the refused session is never shown.
      settled = .signedOut(reason, unshownError: nil)
      return .finished(
        nil,
        [
          .clearStore,
          publish(state: stateToShow, event: .signedOut(reason), idToken: .clear),
          publish(event: .initialState(settled.state)),
        ])
    case .session(let stored, isFresh: true):
      let effects = adopt(stored, health: .fresh)
      return .finished(
        stored.user,
        effects + [
          publish(
            state: stateToShow, event: .initialState(settled.state), idToken: .set(stored.idToken))
        ])
    case .session(let stored, isFresh: false):
      let identity = newIdentity()
      settled = .restoring(.refreshing(stored, identity))
      attempt.identity = identity
      return .refreshing
    }
  }

  /// The launch refresh of a restore ended (succeeded, failed, or ran out of time).
  mutating func restoreRefreshEnded(_ attempt: RestoreAttempt) -> RestoreStep {
    guard let own = attempt.identity, isCurrent(own), let current = session else {
      // A terminal failure ended the session (and cleared the store), or another identity took
      // over.
      if isOvertaken(attempt) { return .finished(session?.user, []) }
      return .finished(nil, [publish(event: .initialState(settled.state))])
    }
    switch settled {
    case .restoring:
      // Nothing settled the launch refresh: the session stays, stale, with a retry in backoff.
      settled = .signedIn(SignedIn(session: current, health: .stale, identity: own, failedRefreshes: 1))
      if isOvertaken(attempt) { return .finished(current.user, [.startProactiveRefresh] + showSettledLaunch()) }
    case .signedIn(var signedIn):
      if signedIn.health != .fresh { signedIn.failedRefreshes = max(1, signedIn.failedRefreshes) }
      if signedIn.health == .refreshing { signedIn.health = .stale }
      settled = .signedIn(signedIn)
      if isOvertaken(attempt) { return .finished(current.user, [.startProactiveRefresh]) }
      if signedIn.health == .fresh {
        return .finished(current.user, [.startProactiveRefresh, publish(event: .initialState(settled.state))])
      }
    case .signedOut, .signingIn, .shutDown:
      break
    }
    return .finished(
      current.user,
      [
        .startProactiveRefresh,
        publish(
          state: stateToShow, event: .initialState(settled.state), idToken: .set(current.idToken)),
      ]
    )
  }

  // MARK: - Sign-in and sign-out

  /// A sign-in starts: it is the newest, and shows `signingIn(provider)`.
  mutating func signInStarted(_ provider: ProviderID) -> (SignInAttempt, [Effect]) {
    let attempt = SignInAttempt(ticket: signInsAndSignOuts.start())
    if !isShutDown { phase = .signingIn(provider, attempt, beneath: settled) }
    return (attempt, [publish(state: .signingIn(provider))])
  }

  /// Whether `attempt` is still the newest sign-in or sign-out, so it may store its session.
  private func mayCommit(_ attempt: SignInAttempt) -> Bool {
    if case .signingIn(_, attempt, _) = phase { return signInsAndSignOuts.isNewest(attempt.ticket) }
    return false
  }

  /// Lets the sign-in store its session only while it is the newest sign-in or sign-out and
  /// `Auth` runs.
  ///
  /// - Throws: ``AuthError/Code/superseded`` otherwise: the sign-in must store nothing.
  func requireNewest(_ attempt: SignInAttempt) throws(AuthError) {
    guard mayCommit(attempt) else { throw AuthError.superseded }
  }

  /// The sign-in's session is stored: it becomes the signed-in one, with `provider` as the one
  /// to sign out of with it, and is shown.
  mutating func signInCommitted(
    _ attempt: SignInAttempt, _ stored: StoredSession, isNewUser: Bool, provider: (any SignInProvider)? = nil
  ) -> [Effect] {
    guard mayCommit(attempt) else { return [] }
    phase = settled
    return adopt(stored, health: .fresh, provider: provider) + [
      publish(
        state: stateToShow, event: .signedIn(stored.user, isNewUser: isNewUser),
        idToken: .set(stored.idToken))
    ]
  }

  /// The sign-in failed or was cancelled: if it still owns the screen, the settled state is
  /// shown again. While the launch has not settled yet (a restore's refresh is still running)
  /// the screen keeps `signingIn` rather than go back to `restoring`; the restore shows where
  /// it settles.
  mutating func signInFailed(_ attempt: SignInAttempt) -> [Effect] {
    guard mayCommit(attempt) else { return [] }
    phase = settled
    if case .restoring = settled { return [] }
    return [publish(state: settled.state)]
  }

  /// The session ended; the store is already cleared (or was by someone else).
  ///
  /// A sign-out the user asked for is the newest operation: sign-ins in flight are dropped and
  /// it is shown at once. One caused by the backend only ends the current identity; a sign-in in
  /// flight goes on and shows its own result.
  mutating func sessionEnded(_ reason: SignOutReason, byUser: Bool) -> [Effect] {
    let ended = settled
    if byUser {
      _ = signInsAndSignOuts.start()
      if case .signingIn(_, _, let beneath) = phase { phase = beneath }
    }
    settled = .signedOut(reason, unshownError: nil)
    var effects: [Effect] = [
      .cancelRefreshInFlight, .stopProactiveRefresh,
      publish(state: stateToShow, event: .signedOut(reason), idToken: .clear),
    ]
    // What the user ended goes at the backend and the provider too: a sign-out revokes the
    // refresh token, and a sign-out or a deletion signs out of the provider. A session the
    // backend ended asks neither.
    if byUser, case .signedIn(let signedIn) = ended {
      if reason == .userRequested { effects.append(.revokeRefreshToken(signedIn.session.refreshToken)) }
      if reason == .userRequested || reason == .userDeleted, let provider = signedIn.provider {
        effects.append(.signOutOfProvider(provider))
      }
    }
    return effects
  }

  /// Another process cleared the store or replaced its session: this `Auth` signs out too.
  mutating func storeClearedElsewhere() -> [Effect] {
    sessionEnded(.storageCleared, byUser: false)
  }

  /// The store holds `stored` (or nothing), written by another process: this one follows. A
  /// sign-out there ends the session here with ``SignOutReason/signedOutElsewhere``; another
  /// user's session, or one stored while signed out here, becomes the signed-in one (an
  /// account switch); a newer generation of the same user's session (a refresh or profile
  /// change there) replaces the tokens and profile. What is no newer than what this process
  /// holds (its own writes, coming back) changes nothing. A sign-in in flight here goes on and
  /// shows its own result; before the launch settles, the restore reads the store itself.
  mutating func storedSessionChanged(_ stored: StoredSession?, isFresh: Bool) -> [Effect] {
    guard !isShutDown else { return [] }
    switch (settled, stored) {
    case (.signedIn, nil):
      return sessionEnded(.signedOutElsewhere, byUser: false)
    case (.signedIn(let signedIn), let stored?) where stored.user.uid == signedIn.session.user.uid:
      guard stored.generation > signedIn.session.generation else { return [] }
      let tokensChanged = stored.idToken != signedIn.session.idToken
      let userChanged = stored.user != signedIn.session.user
      settled = .signedIn(updating(stored, of: signedIn.identity, health: isFresh ? .fresh : .stale))
      return [
        .startProactiveRefresh,
        publish(
          state: stateToShow, event: userChanged ? .userUpdated(stored.user) : tokensChanged ? .tokenRefreshed : nil,
          idToken: tokensChanged ? .set(stored.idToken) : .keep),
      ]
    case (.signedIn, let stored?), (.signedOut, let stored?):
      return adopt(stored, health: isFresh ? .fresh : .stale) + [
        publish(
          state: stateToShow, event: .signedIn(stored.user, isNewUser: false), idToken: .set(stored.idToken))
      ]
    case (.signedOut, nil), (.restoring, _), (.signingIn, _), (.shutDown, _):
      return []
    }
  }

  /// The launch waits for a store locked until the device is unlocked: still `restoring`, and
  /// the store's message says why.
  mutating func waitingForStorage(_ message: String) -> [Effect] {
    [publish(errorMessage: .set(message))]
  }

  /// The store became readable: its message goes.
  mutating func storageWaitEnded() -> [Effect] {
    [publish(errorMessage: .clear)]
  }

  // MARK: - Refresh

  /// A token refresh starts; `nil` when there is no session. A signed-in state is marked
  /// `.refreshing`.
  mutating func refreshStarted() -> (RefreshAttempt, [Effect])? {
    guard let current = session, let identity else { return nil }
    let before = health
    var effects: [Effect] = []
    if case .signedIn(var signedIn) = settled {
      signedIn.health = .refreshing
      settled = .signedIn(signedIn)
      effects.append(publish(state: stateToShow))
    }
    return (RefreshAttempt(identity: identity, refreshToken: current.refreshToken, markedFrom: before), effects)
  }

  /// The refreshed session is stored: it is shown `.fresh` with ``AuthEvent/tokenRefreshed``,
  /// and the backoff starts over.
  mutating func refreshSucceeded(_ attempt: RefreshAttempt, _ stored: StoredSession) -> Verdict {
    guard isCurrent(attempt.identity) else { return .superseded }
    settled = .signedIn(updating(stored, of: attempt.identity, health: .fresh, failedRefreshes: 0))
    return .proceed([
      publish(state: stateToShow, event: .tokenRefreshed, idToken: .set(stored.idToken))
    ])
  }

  /// The refresh failed. Terminal errors end the session; cancellation (or a newer operation)
  /// puts back only this refresh's own mark (whoever cancelled it may have settled the state
  /// already); a storage error keeps the session as `.unsaved` with the store's message; anything
  /// else keeps it as `.stale`.
  mutating func refreshFailed(_ attempt: RefreshAttempt, _ error: AuthError) -> RefreshFailure {
    guard isCurrent(attempt.identity), let current = session else { return .dropped }
    if error.code.endsSession { return .endsSession(error.code.signOutReason) }
    if error.code.isCancellation {
      guard let before = attempt.markedFrom, health == .refreshing else { return .handled([]) }
      settled = .signedIn(updating(current, of: attempt.identity, health: before))
      return .handled([publish(state: stateToShow)])
    }
    let isStorage = error.code == .storage
    settled = .signedIn(
      updating(
        current, of: attempt.identity, health: isStorage ? .unsaved : .stale, failedRefreshes: failedRefreshes + 1))
    return .handled([
      publish(
        state: stateToShow, event: .failed(error),
        errorMessage: isStorage ? .set(error.message) : .keep)
    ])
  }

  // MARK: - Account changes

  /// A profile, email, password or link change is stored; superseded when the identity changed
  /// meanwhile (the caller drops its result).
  mutating func accountChanged(
    _ identity: Identity, _ stored: StoredSession, changed: Bool, tokensReplaced: Bool
  ) -> Verdict {
    guard isCurrent(identity) else { return .superseded }
    settled = .signedIn(updating(stored, of: identity, health: tokensReplaced ? .fresh : (health ?? .fresh)))
    return .proceed([
      publish(
        state: stateToShow, event: changed || tokensReplaced ? .userUpdated(stored.user) : nil,
        idToken: tokensReplaced ? .set(stored.idToken) : .keep)
    ])
  }

  // MARK: - Operations the app started

  /// An operation the app started begins: the store shows busy and forgets the last error.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` after shutdown: nothing starts.
  mutating func operationStarted() throws(AuthError) -> [Effect] {
    guard !isShutDown else {
      throw AuthError(.misconfigured, "This Auth was shut down; create a new Auth to continue.")
    }
    screen.busyOperations += 1
    return [.publish(StoreUpdate(errorMessage: .clear, isBusy: true))]
  }

  /// An operation the app started ended, with `failure` when it failed: the launch it settled is
  /// shown if nothing else showed it, the failure is recorded (a cancellation or a sign-in that
  /// waits for its second factor is not one), and the store stops being busy once no other
  /// operation is in flight. The busy flag is cleared even after shutdown, so a screen does not
  /// spin forever.
  mutating func operationEnded(failure: AuthError?) -> [Effect] {
    screen.busyOperations -= 1
    var ended = StoreUpdate(isBusy: screen.busyOperations > 0)
    if let failure, !failure.code.isCancellation, failure.code != .secondFactorRequired {
      ended.event = .failed(failure)
      ended.errorMessage = .set(failure.message)
    }
    return showSettledLaunch() + [.publish(ended)]
  }

  // MARK: - Shutdown

  /// `Auth` shut down: the refresh work stops and nothing is published any more.
  mutating func shutDown() -> [Effect] {
    if !isShutDown { phase = .shutDown(last: phase) }
    return [.cancelRefreshInFlight, .stopProactiveRefresh]
  }

  // MARK: - Private

  /// Whether a sign-in or user sign-out started after `attempt`.
  private func isOvertaken(_ attempt: RestoreAttempt) -> Bool {
    !signInsAndSignOuts.isNewest(attempt.startedAfter)
  }

  private mutating func newIdentity() -> Identity {
    identitiesHandedOut &+= 1
    return Identity(value: identitiesHandedOut)
  }

  /// Makes `stored` the signed-in session with a new identity and restarts proactive refresh.
  private mutating func adopt(
    _ stored: StoredSession, health: SessionHealth, provider: (any SignInProvider)? = nil
  ) -> [Effect] {
    settled = .signedIn(SignedIn(session: stored, health: health, identity: newIdentity(), provider: provider))
    return [.cancelRefreshInFlight, .startProactiveRefresh]
  }

  /// The signed-in session as `stored` with `health`, keeping its identity and provider, and
  /// its failed refreshes unless given. Only called while signed in (or refreshing at launch,
  /// which then becomes signed in).
  private func updating(
    _ stored: StoredSession, of identity: Identity, health: SessionHealth, failedRefreshes: Int? = nil
  ) -> SignedIn {
    guard case .signedIn(var signedIn) = settled else {
      return SignedIn(session: stored, health: health, identity: identity, failedRefreshes: failedRefreshes ?? 0)
    }
    signedIn.session = stored
    signedIn.health = health
    if let failedRefreshes { signedIn.failedRefreshes = failedRefreshes }
    return signedIn
  }

  /// Refreshes that failed in a row for the signed-in session: the proactive refresh waits the
  /// backoff after this many.
  var failedRefreshes: Int {
    if case .signedIn(let signedIn) = settled { return signedIn.failedRefreshes }
    return 0
  }

  /// The phase beneath a sign-in in flight (and beneath shutdown), or the phase itself. Setting
  /// it keeps the sign-in and the shutdown around it.
  private var settled: Phase {
    get { phase.settled }
    set { phase = phase.settling(on: newValue) }
  }

  /// The settled state when no sign-in owns the screen, else `nil`.
  private var stateToShow: AuthState? {
    if case .signingIn = phase { return nil }
    return phase.state
  }

  /// One update for the store, its state left out when it is the one shown already; after
  /// shutdown, an empty one.
  private mutating func publish(
    state: AuthState? = nil, event: AuthEvent? = nil, errorMessage: FieldChange<String> = .keep,
    idToken: FieldChange<String> = .keep
  ) -> Effect {
    guard !isShutDown else { return .publish(StoreUpdate()) }
    var state = state
    if state == screen.state { state = nil }
    if let state { screen.state = state }
    return .publish(
      StoreUpdate(state: state, event: event, errorMessage: errorMessage, idToken: idToken))
  }
}
