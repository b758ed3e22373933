import Foundation

/// Where the session is: the one value ``SessionStateMachine`` keeps, so no pair of facts can
/// disagree (see the machine for what each phase holds).
///
/// - Concurrency: a value type, owned by one `SessionStateMachine`.
indirect enum SessionPhase {
  /// The launch has not settled.
  case restoring(Launch)
  /// `unshownError`: the storage error the launch read hit, until a settled state is shown
  /// with it.
  case signedOut(SignOutReason, unshownError: AuthError?)
  /// The newest sign-in is in flight and owns the screen; `beneath` is the settled phase
  /// (never `signingIn` or `shutDown`).
  case signingIn(ProviderID, SessionStateMachine.SignInAttempt, beneath: SessionPhase)
  case signedIn(SignedIn)
  /// `Auth` shut down in `last`, which still answers what the session is; nothing is shown.
  case shutDown(last: SessionPhase)

  /// The state this phase shows.
  var state: AuthState {
    switch self {
    case .restoring: .restoring
    case .signedOut(let reason, _): .signedOut(reason)
    case .signingIn(let provider, _, _): .signingIn(provider)
    case .signedIn(let signedIn): .signedIn(signedIn.session.user, signedIn.health)
    case .shutDown(let last): last.state
    }
  }

  /// The phase beneath a sign-in in flight (and beneath shutdown), or the phase itself.
  var settled: SessionPhase {
    switch self {
    case .signingIn(_, _, let beneath): beneath
    case .shutDown(let last): last.settled
    case .restoring, .signedOut, .signedIn: self
    }
  }

  /// This phase with `settled` beneath the sign-in and the shutdown around it.
  func settling(on settled: SessionPhase) -> SessionPhase {
    switch self {
    case .signingIn(let provider, let attempt, _): .signingIn(provider, attempt, beneath: settled)
    case .shutDown(let last): .shutDown(last: last.settling(on: settled))
    case .restoring, .signedOut, .signedIn: settled
    }
  }

  /// A signed-in session and what ends with it.
  struct SignedIn {
    var session: StoredSession
    var health: SessionHealth
    let identity: SessionStateMachine.Identity
    /// The provider the session was signed in with (or restored beside it), asked to sign out
    /// when the user signs out or deletes the account; `nil` for a password, a held credential…
    var provider: (any SignInProvider)?
    /// Refreshes that failed in a row since the last one that succeeded: the proactive
    /// refresh's backoff.
    var failedRefreshes = 0
  }

  /// How far the launch got before it settled.
  enum Launch {
    /// Nobody has read the store yet.
    case unread
    /// A restore is reading the store.
    case reading
    /// The stored session is being refreshed under the restore deadline; it has its identity.
    case refreshing(StoredSession, SessionStateMachine.Identity)
  }
}
