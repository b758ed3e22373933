import Foundation

/// What the machine answers `Auth`: the effects to perform, and the outcomes of reads, restores
/// and refreshes.
extension SessionStateMachine {
  /// One thing `Auth` does after an event. Effects are performed in the order given; the
  /// updates of one event are published together and waited for.
  enum Effect {
    /// Cancel the refresh in flight (its result belongs to an identity that is gone).
    case cancelRefreshInFlight
    case stopProactiveRefresh
    /// Replace the proactive refresh task with one for the current identity; it asks
    /// ``nextProactiveStep(for:afterWaiting:now:random:)`` what to do.
    case startProactiveRefresh
    /// Remove the stored session: the launch found it refused by its identity provider.
    case clearStore
    case publish(StoreUpdate)
    /// Ask the backend to revoke the refresh token of the session the user signed out of. It
    /// comes after the sign-out is shown: signed out here first, offline or with a backend that
    /// cannot revoke, and a failure changes nothing.
    case revokeRefreshToken(String)
    /// Ask the provider the ended session signed in with to forget its own session (Google's
    /// refresh token and scopes), after the sign-out or deletion is shown.
    case signOutOfProvider(any SignInProvider)
  }

  /// The answer to a result that arrives after its work: go on with these effects, or drop the
  /// result because a newer identity or operation overtook it.
  enum Verdict {
    case proceed([Effect])
    case superseded
  }

  /// What one read of the store found.
  enum StoreRead {
    case nothing
    /// `isFresh`: the ID token has more than the refresh lead time left.
    case session(StoredSession, isFresh: Bool)
    /// A stored session whose identity provider no longer authorizes its user: the restore's
    /// credential check (``credentialChecks(for:)``) ends it with `reason`.
    case refused(StoredSession, SignOutReason)
    case unreadable(AuthError)
  }

  /// What a restore does next; `Auth` does it and hands the outcome back, until the restore
  /// is over.
  enum RestoreStep {
    /// Perform the effects, read the store, and hand the read to ``restoreRead(_:_:)``.
    case read([Effect])
    /// Ask the identity provider `provider` whether it still authorizes the stored user
    /// (`rawID`, its id there), within the restore deadline, and hand the answer (`nil`: no
    /// answer, or no check for the provider) to ``restoreCredentialAnswered(_:_:)``.
    case checkCredential(ProviderID, rawID: String)
    /// The stored session needs a refresh, under the restore deadline; then call
    /// ``restoreRefreshEnded(_:)``.
    case refreshing
    /// The restore is over: perform the effects and return the user.
    case finished(User?, [Effect])
    /// The store is unreadable: perform the effects, then throw.
    case failed(AuthError, [Effect])
  }

  enum RefreshFailure {
    /// The identity changed meanwhile: rethrow, touching nothing.
    case dropped
    /// A terminal failure: end the session with this reason (clearing the store).
    case endsSession(SignOutReason)
    case handled([Effect])
  }
}
