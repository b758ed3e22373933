import SignInConcurrency

/// Everything a screen shows about sign-in, readable synchronously from `@UIStateActor` code.
///
/// Only ``Auth`` changes it. `Auth` queues each change in its own serial order and then hops onto
/// `UIStateActor` to apply the queue, so the store's properties and the three streams move through
/// the same sequence of values, and a value is visible here before the `Auth` call that caused it
/// returns.
///
/// ```swift
/// @UIStateActor func render(_ store: AuthStateStore) {
///   if store.isBusy { showSpinner() }
///   if let message = store.errorMessage { showBanner(message) }
/// }
/// ```
///
/// - Concurrency: `@UIStateActor`. The streams (``Auth/states``, ``Auth/events``, ``Auth/idTokens``)
///   can be subscribed from any isolation.
@UIStateActor public final class AuthStateStore {
  /// The current sign-in state.
  public private(set) var state: AuthState = .restoring
  /// The last failure in plain words, cleared when the next operation starts.
  public private(set) var errorMessage: String?
  /// `true` while an operation the app started is in flight.
  public private(set) var isBusy = false

  /// What a screen shows, after each update that changed it.
  struct Screen: Sendable, Equatable {
    var state: AuthState = .restoring
    var user: User?
    var isBusy = false
    var errorMessage: String?
  }

  package nonisolated let states: Broadcaster<AuthState>
  /// The screen after every update that changed it; what ``AuthViewModel`` follows. It does not
  /// replay: a follower reads ``currentScreen`` after subscribing. A change is built into a
  /// `Screen` only while someone follows.
  nonisolated let screens = Broadcaster<Screen>(bufferingNewest: 1)
  nonisolated let events: Broadcaster<AuthEvent>
  /// The user of each settled state that names a different user or profile than the last one.
  nonisolated let users = Broadcaster(replayingFromFirstValue: User?.self)
  /// What ``users`` last sent; `.none` until the launch settled.
  private var lastUser: User??
  nonisolated let idTokens: Broadcaster<String?>
  private nonisolated let pending = Locked<[StoreUpdate]>([])
  /// How many times ``drain()`` ran: each is one hop onto `UIStateActor` by `Auth`.
  private(set) var drainCount = 0
  /// The emptied buffer of the last ``drain()``, ready to take the next queue.
  private var spare: [StoreUpdate] = []
  /// The user of the newest settled state.
  private var shownUser: User?
  /// What the store shows, for readers on any isolation.
  private nonisolated let snapshot = Locked(Screen())

  /// ``state``, readable from any isolation without `await`.
  nonisolated var currentState: AuthState { snapshot.withLock { $0.state } }

  /// The user of the newest published `signedIn` state, `nil` after a `signedOut` one; a
  /// `signingIn` or `restoring` state leaves it as it was.
  nonisolated var currentUser: User? { snapshot.withLock { $0.user } }

  /// What a screen shows now, readable from any isolation.
  nonisolated var currentScreen: Screen { snapshot.withLock { $0 } }

  package nonisolated init(eventBufferLimit: Int) {
    states = Broadcaster(replaying: .restoring)
    events = Broadcaster(bufferingNewest: eventBufferLimit)
    idTokens = Broadcaster(replaying: nil)
  }

  /// Queues an update; ``Auth`` calls it in its own order, then awaits ``drain()``.
  package nonisolated func enqueue(_ update: StoreUpdate) {
    pending.withLock { $0.append(update) }
  }

  /// Applies every queued update, oldest first.
  package func drain() {
    drainCount += 1
    // Two buffers trade places so a publish allocates nothing once they have grown.
    var updates = spare
    pending.withLock { swap(&$0, &updates) }
    for update in updates { apply(update) }
    updates.removeAll(keepingCapacity: true)
    spare = updates
  }

  /// Applies one update. It runs on every published change, and a subscriber it wakes tends to
  /// run only once this thread is free (measured in `signin-bench` row 1c), so it stays lean: one
  /// lock for the snapshot, a screen built only for followers, each value copied once.
  private func apply(_ update: StoreUpdate) {
    var screenChanged = false
    if let busy = update.isBusy, busy != isBusy {
      isBusy = busy
      screenChanged = true
    }
    switch update.errorMessage {
    case .keep: break
    case .set(let message):
      if message != errorMessage {
        errorMessage = message
        screenChanged = true
      }
    case .clear:
      if errorMessage != nil {
        errorMessage = nil
        screenChanged = true
      }
    }
    var user: User??
    if let state = update.state {
      switch state {
      case .signedIn(let signedIn, _): user = .some(signedIn)
      case .signedOut: user = .some(nil)
      case .restoring, .signingIn: user = nil
      }
      if state != self.state {
        self.state = state
        screenChanged = true
      }
    }
    if let user { shownUser = user }
    if screenChanged {
      snapshot.withLock { snapshot in
        snapshot.state = state
        snapshot.user = shownUser
        snapshot.isBusy = isBusy
        snapshot.errorMessage = errorMessage
      }
      screens.send {
        Screen(state: state, user: shownUser, isBusy: isBusy, errorMessage: errorMessage)
      }
    }
    switch update.idToken {
    case .keep: break
    case .set(let token): idTokens.send(token)
    case .clear: idTokens.send(nil)
    }
    if let event = update.event { events.send(event) }
    if let user { sendUserIfChanged(user) }
    if let state = update.state { states.send(state) }
  }

  /// Sends the user of a settled state (`signedIn`, `signedOut`) when it is not the one sent last:
  /// another account, or the same one with a changed profile. A change of health alone, or a
  /// `restoring` or `signingIn` state, sends nothing.
  private func sendUserIfChanged(_ user: User?) {
    if case .some(let last) = lastUser, last == user { return }
    lastUser = .some(user)
    users.send(user)
  }

  /// Ends every stream; used by ``Auth/shutdown()``.
  nonisolated func finish() {
    states.finish()
    users.finish()
    screens.finish()
    events.finish()
    idTokens.finish()
  }
}
