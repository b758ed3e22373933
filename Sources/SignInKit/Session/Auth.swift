import Foundation
import SignInConcurrency
import SignInCrypto

/// The actor that owns the session: it exchanges credentials with an ``AuthBackend``, persists the
/// session in a ``SessionStore``, refreshes tokens (one request however many callers), restores
/// the previous sign-in at launch, and publishes every change to ``AuthStateStore`` on
/// ``UIStateActor``.
///
/// ```swift
/// let auth = Auth(backend: backend)
/// Task { for await state in auth.states { print(state) } }   // current state first, then changes
/// _ = try await auth.restorePreviousSignIn()
/// let result = try await auth.signIn(email: "ada@example.com", password: password)
/// let token = try await auth.idToken()                       // refreshed once if it is expiring
/// try await auth.signOut()
/// await auth.shutdown()
/// ```
///
/// Rules every operation follows:
/// - **Persist first, publish second.** A state that says `signedIn` is already stored.
/// - **Last started wins.** A sign-in that finishes after a newer sign-in or sign-out started, or
///   a refresh or profile call that finishes after the signed-in user changed, is dropped (it
///   throws ``AuthError/Code/superseded``) and never touches the newer session.
/// - **Cancellation.** Cancelling the calling task cancels the backend call; the state goes back
///   to what it was and the call throws ``AuthError/Code/cancelled``. A person who closes the
///   browser or sheet or denies consent gets ``AuthError/Code/userCancelled``. None of the three
///   is published as a failure (``AuthError/Code/isCancellation``).
/// - **Results.** A call that starts a session or attaches a credential to it (sign-up, sign-in,
///   link) returns a ``SignInResult``: the user and what the sign-in said about them (new user,
///   the provider's profile). A call that changes the signed-in account and keeps the session
///   (reload, profile, email, password, unlink, reauthenticate) returns the updated ``User``,
///   already published. A call that ends the session or acts on an account by code or email
///   outside it (sign-out, delete, password reset, verification, action codes) returns nothing;
///   the state stream says what changed.
/// - **Terminal token failures** (`INVALID_REFRESH_TOKEN`, `USER_NOT_FOUND`, `USER_DISABLED`,
///   `TOKEN_EXPIRED`) sign the user out with that reason and clear the store; transient ones keep
///   the user signed in as ``SessionHealth/stale`` and retry with backoff.
///
/// Call ``shutdown()`` when done: it cancels the refresh task `Auth` owns and ends every stream.
///
/// The calls by area:
/// - Streams: ``states``, ``users``, ``events``, ``idTokens``, ``stateStore``
/// - Launch: ``hasPreviousSignIn()``, ``restorePreviousSignIn()``
/// - Sign-in: ``signUp(email:password:)``, ``signIn(email:password:)``, ``signInAnonymously()``,
///   ``signIn(with:)-(SignInProvider)``, ``signIn(with:)-(ProviderCredential)``, ``signIn(email:link:)``,
///   ``signIn(customToken:)``, ``link(with:)-(SignInProvider)``, ``link(with:)-(ProviderCredential)``,
///   ``linkEmail(_:password:)``, ``resolveSignIn(_:enrollmentID:code:)``, ``signOut()``
/// - Tokens: ``idToken(forceRefresh:)``, ``idTokenResult(forceRefresh:)``
///
/// - Concurrency: actor. Its public async methods may be called from any isolation, concurrently.
public actor Auth {
  /// What screens read, isolated to ``UIStateActor``.
  public nonisolated let stateStore: AuthStateStore
  public nonisolated let configuration: AuthConfiguration

  /// The backend of the current tenant (``switchTenant(to:)`` replaces it).
  var backend: any AuthBackend
  /// Where the current tenant's session is kept: ``sessions`` scoped to the tenant.
  var store: any SessionStore
  /// The store as given, holding every tenant's session apart.
  let sessions: any SessionStore
  /// The current tenant, readable from any isolation.
  nonisolated let currentTenant: Locked<String?>
  let clock: any Clock<Duration>
  let now: @Sendable () -> Date

  /// The session's rules and state: `Auth` does the I/O around it.
  var machine: SessionStateMachine
  var autoRefreshTask: Task<Void, Never>?
  /// Listens to the providers' credential revocations (see
  /// ``restorePreviousSignIn(alongWith:)``) until ``shutdown()``.
  var credentialWatchTask: Task<Void, Never>?
  /// Follows the store's changes by other processes (``followStoreChanges()``) until
  /// ``shutdown()``.
  var followTask: Task<Void, Never>?
  /// Restores the session once a store that was locked at launch can be read
  /// (``restoreWhenReadable()``), until ``shutdown()``.
  var unlockTask: Task<Void, Never>?
  /// The backend's password policy, once read (``passwordPolicy()``).
  var passwordPolicyRead: PasswordPolicy?
  /// Whom to ask whether a session's identity provider still authorizes its user: the
  /// configured sources, with the providers given to ``restorePreviousSignIn(alongWith:)`` over
  /// them.
  var credentialChecks: [ProviderID: CredentialCheck]
  nonisolated let refreshFlight: SingleFlight<String>
  nonisolated let restoreFlight: SingleFlight<User?>

  /// Creates an `Auth`. Nothing runs until you call a method: no task is started here.
  ///
  /// - Parameters:
  ///   - backend: the identity service.
  ///   - store: where the session is kept; by default ``defaultSessionStore(namespace:)``: the
  ///     keychain on Apple platforms, a ``FileSessionStore`` under
  ///     `$XDG_STATE_HOME/signinkit/default` elsewhere.
  ///   - clock: drives proactive refresh, retry backoff and the restore deadline.
  ///   - configuration: tunables.
  ///   - now: the wall clock used for token expiry (tests pair it with their clock).
  public init(
    backend: any AuthBackend, store: any SessionStore = Auth.defaultSessionStore(),
    clock: any Clock<Duration> = ContinuousClock(),
    configuration: AuthConfiguration = AuthConfiguration(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.backend = backend
    // A tenant's session lives apart from the project's and from other tenants'.
    self.store = backend.tenantID.map { store.scoped(toTenant: $0) } ?? store
    sessions = store
    currentTenant = Locked(backend.tenantID)
    self.clock = clock
    self.configuration = configuration
    self.now = now
    self.stateStore = AuthStateStore(eventBufferLimit: configuration.eventBufferLimit)
    machine = SessionStateMachine(schedule: RefreshSchedule(configuration))
    credentialChecks = configuration.credentialStateSources.mapValues(CredentialCheck.init(source:))
    refreshFlight = SingleFlight(executorPreference: configuration.taskExecutor)
    restoreFlight = SingleFlight(executorPreference: configuration.taskExecutor)
  }

  // MARK: - Streams

  /// Every state, starting with the current one.
  ///
  /// Each subscriber receives the current state first (registered atomically with the replay, so
  /// nothing is missed or repeated), then every later state in the same order as every other
  /// subscriber. A subscriber that falls behind is conflated to the newest state; it never slows
  /// `Auth`. The subscription ends when the consuming loop ends or its task is cancelled, and
  /// every stream finishes on ``shutdown()``.
  public nonisolated var states: AsyncStream<AuthState> { stateStore.states.subscribe() }

  /// The signed-in user, or `nil` when signed out, each time that changes: FirebaseAuth's
  /// auth-state listener beside ``states``, which also changes with the session's health.
  ///
  /// The first value comes once the launch has settled (after ``restorePreviousSignIn()`` or
  /// the first call that reads the store), or at once when it already has. After it, a value
  /// comes only when a settled state names another user, or the same user with a changed
  /// profile (email, name, photo, verification, providers, sign-in time): a token refresh, a
  /// stale or fresh session, or a sign-in in flight send nothing. Conflated to the newest user
  /// for a subscriber that falls behind; ends like ``states``.
  public nonisolated var users: AsyncStream<User?> { stateStore.users.subscribe() }

  /// Every event from the moment of subscription, without replay.
  ///
  /// Each subscriber buffers up to ``AuthConfiguration/eventBufferLimit`` events; beyond that
  /// the oldest buffered events are dropped. Ends like ``states``.
  public nonisolated var events: AsyncStream<AuthEvent> { stateStore.events.subscribe() }

  /// The current ID token (or `nil` when signed out) first, then every new one: after sign-in,
  /// refresh, email or password change, and sign-out. Conflated and ended like ``states``.
  public nonisolated var idTokens: AsyncStream<String?> { stateStore.idTokens.subscribe() }

  /// The signed-in user, as the streams last published it: readable without `await`, from any
  /// isolation (a view's `body`, a synchronous callback).
  ///
  /// It follows ``AuthStateStore/state``: it changes when a state is published, so it is the
  /// user of the newest `signedIn` state, `nil` after a `signedOut` one, and unchanged while a
  /// sign-in is in flight (`signingIn`) or the launch is `restoring`.
  public nonisolated var currentUser: User? { stateStore.currentUser }

  /// The state the streams last published, readable without `await` from any isolation; the
  /// same value ``AuthStateStore/state`` holds.
  public nonisolated var currentState: AuthState { stateStore.currentState }

  /// Ends the session's background work: cancels the proactive refresh task and any refresh or
  /// restore in flight, and finishes every stream. The stored session is kept. A sign-in still in
  /// flight stores nothing and throws ``AuthError/Code/cancelled``; later calls throw
  /// ``AuthError/Code/misconfigured``.
  public func shutdown() {
    let effects = machine.shutDown()
    restoreFlight.cancel()
    credentialWatchTask?.cancel()
    credentialWatchTask = nil
    stopFollowingStore()
    unlockTask?.cancel()
    unlockTask = nil
    performWithoutPublishing(effects)
    stateStore.finish()
  }

  // MARK: - Performing

  /// Does what the state machine decided, in its order: cancels the refresh in flight, changes
  /// the proactive refresh task, hands the updates to the store in `Auth`'s order, then waits
  /// until they are visible there, with any updates queued before them; what follows a
  /// sign-out (revoking its refresh token, the provider's sign-out) goes out once it is shown.
  ///
  /// The updates are queued before the first suspension, so two events' effects are published
  /// in the order the machine produced them.
  func perform(_ effects: [SessionStateMachine.Effect]) async {
    var afterShown: [@Sendable () async -> Void] = []
    if start(effects, publishing: true, afterShown: &afterShown) { await stateStore.drain() }
    for work in afterShown { await work() }
  }

  /// Does what the machine decided when its answer is to go on; a result the machine dropped
  /// (a newer identity or operation overtook it) throws ``AuthError/Code/superseded``.
  func perform(_ verdict: SessionStateMachine.Verdict) async throws {
    guard case .proceed(let effects) = verdict else { throw AuthError.superseded }
    await perform(effects)
  }

  /// The part of ``perform(_:)-([SessionStateMachine.Effect])`` that does not suspend: the
  /// updates wait in the store's queue for the next drain, which must come before the operation
  /// returns. Returns whether any update was queued.
  @discardableResult func enqueue(_ effects: [SessionStateMachine.Effect]) -> Bool {
    var afterShown: [@Sendable () async -> Void] = []
    return start(effects, publishing: true, afterShown: &afterShown)
  }

  /// The part of ``perform(_:)-([SessionStateMachine.Effect])`` that does not suspend; the
  /// updates are dropped.
  func performWithoutPublishing(_ effects: [SessionStateMachine.Effect]) {
    var afterShown: [@Sendable () async -> Void] = []
    start(effects, publishing: false, afterShown: &afterShown)
  }

  /// Does each effect that does not suspend, queues the updates when `publishing`, and adds
  /// what must wait until they are shown to `afterShown`. Returns whether an update was queued.
  @discardableResult private func start(
    _ effects: [SessionStateMachine.Effect], publishing: Bool, afterShown: inout [@Sendable () async -> Void]
  ) -> Bool {
    var queued = false
    for effect in effects {
      switch effect {
      case .cancelRefreshInFlight: refreshFlight.cancel()
      case .stopProactiveRefresh:
        autoRefreshTask?.cancel()
        autoRefreshTask = nil
      case .startProactiveRefresh: startAutomaticRefresh()
      // A session the provider refused: if it cannot be removed, the next launch asks again.
      case .clearStore: try? store.clear()
      case .publish(let update):
        guard publishing, !update.isEmpty else { continue }
        stateStore.enqueue(update)
        queued = true
      case .revokeRefreshToken(let refreshToken):
        let backend = backend
        afterShown.append { try? await backend.revokeRefreshToken(RefreshTokenRequest(refreshToken: refreshToken)) }
      case .signOutOfProvider(let provider):
        afterShown.append { await provider.signOut() }
      }
    }
    return queued
  }

  /// The signed-in session, as stored.
  var session: StoredSession? { machine.session }

  /// The Identity Platform tenant this `Auth` signs users in to: its backend's
  /// (``AuthBackend/tenantID``), or `nil` for the project's own users.
  public nonisolated var tenantID: String? { currentTenant.withLock { $0 } }

  /// Refuses an ID token that names another tenant than this `Auth`'s (`firebase.tenant`), as
  /// FirebaseAuth refuses one with `TENANT_ID_MISMATCH`.
  func checkTenant(ofIDToken token: String) throws {
    let named = (try? JSONWebToken(decoding: token))?.claims["firebase"]?.object?["tenant"]?.string
    guard named == tenantID else {
      throw AuthError(
        .tenantMismatch,
        "The session belongs to \(named.map { "tenant \($0)" } ?? "the project's own users"), not to "
          + "\(tenantID.map { "tenant \($0)" } ?? "the project's own users") as this Auth; sign in again.")
    }
  }

  /// Runs an operation the app started: marks the store busy, clears the last error, and on
  /// failure records the error's message and a ``AuthEvent/failed(_:)`` event.
  func userOperation<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    func begin() {}
    return try await userOperation(beginning: begin) { _ in try await body() }
  }

  /// ``userOperation(_:)`` whose `begin` runs before the busy flag is published and may queue
  /// updates (with ``enqueue(_:)``) to be shown with it; the body may likewise queue its last
  /// updates to be shown with the end of the busy flag. A sign-in so publishes twice: busy and
  /// `signingIn` together, then its result and the end of busy together.
  func userOperation<T: Sendable, Start>(
    beginning begin: () -> Start, _ body: (Start) async throws -> T
  ) async throws -> T {
    let started = try machine.operationStarted()
    settleLaunch()
    enqueue(started)
    let start = begin()
    await stateStore.drain()
    do {
      let value = try await body(start)
      await perform(machine.operationEnded(failure: nil))
      return value
    } catch {
      let error = AuthError.wrapping(error)
      await perform(machine.operationEnded(failure: error))
      throw error
    }
  }

  // MARK: - Sign-in and sign-out

  /// Runs a sign-in whose backend exchange is `exchange`, then commits it if it is still the
  /// newest; on failure or cancellation shows the settled state again.
  func signIn(
    as provider: ProviderID, using signInProvider: (any SignInProvider)? = nil,
    _ exchange: () async throws -> SignInResponse
  ) async throws -> SignInResult {
    try await signIn(as: provider, using: signInProvider) { (try await exchange(), nil) }
  }

  /// ``signIn(as:using:_:)`` for an exchange with an identity provider's credential: the result
  /// carries what the provider and the backend said of the user, and the provider's credential.
  func signIn(
    as provider: ProviderID, using signInProvider: (any SignInProvider)? = nil,
    _ exchange: () async throws -> (SignInResponse, ProviderCredential?)
  ) async throws -> SignInResult {
    // `signingIn` is shown in the same hop as the busy flag.
    func begin() -> SessionStateMachine.SignInAttempt {
      let (attempt, started) = machine.signInStarted(provider)
      enqueue(started)
      return attempt
    }
    return try await userOperation(beginning: begin) { attempt in
      do {
        // The tenant's backend when the sign-in started: a switch meanwhile supersedes it.
        let backend = backend
        let (response, credential) = try await exchange()
        try machine.requireNewest(attempt)
        try checkTenant(ofIDToken: response.tokens.idToken)
        let account = try await backend.lookup(LookupRequest(idToken: response.tokens.idToken))
        try Task.checkCancellation()
        try machine.requireNewest(attempt)
        var user = account.user
        user.signedInAnonymously = provider == .anonymous
        var session = StoredSession(
          user: user, tokens: response.tokens, receivedAt: now(), signInProvider: provider)
        // One on from whatever this process last held, so a process that follows the store
        // takes a new sign-in of the same user as newer.
        session.generation = (machine.session?.generation ?? 0) + 1
        try store.save(session)
        // Shown with the end of busy, before this call returns.
        enqueue(
          machine.signInCommitted(attempt, session, isNewUser: response.isNewUser, provider: signInProvider))
        return SignInResult(
          user: session.user, isNewUser: response.isNewUser, providerID: provider, credential: credential,
          answeredWith: response)
      } catch {
        enqueue(machine.signInFailed(attempt))
        throw error
      }
    }
  }

  /// Ends the session locally: clears the store, forgets the session, publishes `signedOut`.
  ///
  /// A sign-out the user asked for is the newest operation: sign-ins in flight are dropped and
  /// it is shown at once. One caused by the backend (a terminal refresh failure, a deleted
  /// account) only ends the current identity; a sign-in in flight goes on and shows its own
  /// result.
  ///
  /// - Throws: ``AuthError/Code/storage`` when the store cannot be cleared and `mustClear`; the
  ///   session is then kept. Otherwise a failure to clear is ignored: the server already ended the
  ///   session, and a later restore will learn that again.
  func endSession(_ reason: SignOutReason, byUser: Bool, mustClear: Bool = false) async throws {
    do {
      try store.clear()
    } catch  where mustClear {
      throw error
    } catch {}
    await perform(machine.sessionEnded(reason, byUser: byUser))
  }

  /// Signs up a new email/password account and signs it in.
  ///
  /// - Throws: ``AuthError`` — ``AuthError/Code/emailAlreadyInUse``,
  ///   ``AuthError/Code/weakPassword``, ``AuthError/Code/invalidEmail``, network codes.
  public func signUp(email: String, password: String) async throws -> SignInResult {
    try await signIn(as: .password) {
      try await backend.signUp(SignUpRequest(email: email, password: password))
    }
  }

  /// Signs in with email and password.
  ///
  /// Shows ``AuthState/signingIn(_:)`` while the backend is asked; on success the session is
  /// stored, then ``AuthState/signedIn(_:_:)`` is published. Cancelling the calling task cancels
  /// the request and shows the previous state again.
  ///
  /// - Throws: ``AuthError`` — ``AuthError/Code/wrongPassword``, ``AuthError/Code/userNotFound``,
  ///   ``AuthError/Code/invalidCredential``, ``AuthError/Code/userDisabled``,
  ///   ``AuthError/Code/tooManyRequests``, ``AuthError/Code/cancelled``, network codes.
  public func signIn(email: String, password: String) async throws -> SignInResult {
    try await signIn(as: .password) {
      try await backend.signInWithPassword(PasswordSignInRequest(email: email, password: password))
    }
  }

  /// Signs in with a custom token your server minted (Firebase's `signIn(withCustomToken:)`):
  /// the user it names, created on first use. The token's claims appear in
  /// ``idTokenResult(forceRefresh:)``; the user is not anonymous.
  ///
  /// Shows ``AuthState/signingIn(_:)`` with ``ProviderID/custom`` meanwhile. Cancelling the
  /// calling task cancels the request and shows the previous state again.
  ///
  /// - Throws: ``AuthError`` — ``AuthError/Code/invalidCredential`` (malformed, expired, for
  ///   another project, or not from a trusted signer), ``AuthError/Code/userDisabled``,
  ///   ``AuthError/Code/cancelled``, network codes.
  public func signIn(customToken: String) async throws -> SignInResult {
    try await signIn(as: .custom) {
      try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: customToken))
    }
  }

  /// Creates an anonymous account and signs it in. Link a credential later to keep its uid.
  public func signInAnonymously() async throws -> SignInResult {
    try await signIn(as: .anonymous) { try await backend.signUp(SignUpRequest()) }
  }

  /// Signs in with an identity provider: the provider obtains a credential (off this actor),
  /// then the backend exchanges it.
  ///
  /// - Throws: what the provider throws, wrapped as ``AuthError``, or the backend's errors such
  ///   as ``AuthError/Code/accountExistsWithDifferentCredential``.
  public func signIn(with provider: some SignInProvider) async throws -> SignInResult {
    let providerID = await provider.id
    return try await signIn(as: providerID, using: provider) {
      let credential = try await provider.credential()
      let response = try await exchangeConflictAware(credential) {
        try await backend.signInWithIdp(IdpSignInRequest(credential: credential))
      }
      // Apple shares the user's name once, outside the token: keep it in the new profile.
      if response.isNewUser, let name = credential.fullName {
        _ = try? await backend.update(UpdateAccountRequest(idToken: response.tokens.idToken, displayName: name))
      }
      return (response, credential)
    }
  }

  /// Signs in with a credential the app already holds: tokens from GoogleSignIn
  /// (``ProviderCredential/google(idToken:accessToken:)``) or from its own OpenID flow
  /// (``ProviderCredential/openID(_:idToken:rawNonce:accessToken:)``). The backend checks the
  /// token as it checks a provider's, the nonce too.
  ///
  /// ``signOut()`` then signs out of SignInKit only; the app signs out of GoogleSignIn itself.
  ///
  /// - Cancellation, ordering and buffering: as ``signIn(with:)-(SignInProvider)``.
  public func signIn(with credential: ProviderCredential) async throws -> SignInResult {
    try await signIn(with: HeldCredential(credential))
  }

  /// Signs out: clears the stored session, publishes `signedOut(.userRequested)`, asks the
  /// backend to revoke the session's refresh token (the embedded backend does; Firebase's REST
  /// API cannot), and asks the provider used to sign in to forget its tokens. Any sign-in or
  /// refresh still in flight is dropped when it finishes.
  ///
  /// - Throws: ``AuthError/Code/storage`` when the stored session cannot be removed; the user then
  ///   stays signed in.
  public func signOut() async throws {
    // The revocation and the provider's sign-out are the machine's effects, after the sign-out
    // is shown.
    try await userOperation { try await endSession(.userRequested, byUser: true, mustClear: true) }
  }
}
