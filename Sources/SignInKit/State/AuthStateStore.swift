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
  /// The screen after every update that changed it, replaying the current one; what
  /// ``AuthViewModel`` follows.
  nonisolated let screens = Broadcaster(replaying: Screen())
  nonisolated let events: Broadcaster<AuthEvent>
  /// The user of each settled state that names a different user or profile than the last one.
  nonisolated let users = Broadcaster(replayingFromFirstValue: User?.self)
  /// What ``users`` last sent; `.none` until the launch settled.
  private var lastUser: User??
  nonisolated let idTokens: Broadcaster<String?>
  private nonisolated let pending = Locked<[StoreUpdate]>([])
  /// ``state`` and the user it last named, for readers on any isolation.
  private nonisolated let snapshot = Locked<(state: AuthState, user: User?)>((.restoring, nil))

  /// ``state``, readable from any isolation without `await`.
  nonisolated var currentState: AuthState { snapshot.withLock { $0.state } }

  /// The user of the newest published `signedIn` state, `nil` after a `signedOut` one; a
  /// `signingIn` or `restoring` state leaves it as it was.
  nonisolated var currentUser: User? { snapshot.withLock { $0.user } }

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
    let updates = pending.withLock { queue in
      defer { queue.removeAll(keepingCapacity: true) }
      return queue
    }
    for update in updates { apply(update) }
  }

  private func apply(_ update: StoreUpdate) {
    let before = (state, isBusy, errorMessage)
    if let busy = update.isBusy { isBusy = busy }
    switch update.errorMessage {
    case .keep: break
    case .set(let message): errorMessage = message
    case .clear: errorMessage = nil
    }
    if let state = update.state {
      self.state = state
      snapshot.withLock { snapshot in
        snapshot.state = state
        switch state {
        case .signedIn(let user, _): snapshot.user = user
        case .signedOut: snapshot.user = nil
        case .restoring, .signingIn: break
        }
      }
      states.send(state)
      sendUserIfChanged(by: state)
    }
    switch update.idToken {
    case .keep: break
    case .set(let token): idTokens.send(token)
    case .clear: idTokens.send(nil)
    }
    if let event = update.event { events.send(event) }
    if before != (state, isBusy, errorMessage) {
      screens.send(
        Screen(state: state, user: currentUser, isBusy: isBusy, errorMessage: errorMessage))
    }
  }

  /// Sends the user of a settled state (`signedIn`, `signedOut`) when it is not the one sent last:
  /// another account, or the same one with a changed profile. A change of health alone, or a
  /// `restoring` or `signingIn` state, sends nothing.
  private func sendUserIfChanged(by state: AuthState) {
    let user: User?
    switch state {
    case .signedIn(let signedIn, _): user = signedIn
    case .signedOut: user = nil
    case .restoring, .signingIn: return
    }
    guard lastUser != .some(user) else { return }
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
