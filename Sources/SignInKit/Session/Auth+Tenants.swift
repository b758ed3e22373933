extension Auth {
  /// Moves this `Auth` to the users of Identity Platform tenant `tenantID` (`nil`: the
  /// project's own), as setting FirebaseAuth's `Auth.tenantID` does: for a sign-in screen that
  /// asks for the organisation first.
  ///
  /// Each tenant keeps its own session. The current one is not signed out at the backend and
  /// stays stored: the event is `.signedOut(.tenantChanged)`, then the new tenant's stored
  /// session, if it has one, is restored, as at launch (with none, the state is
  /// `signedOut(.initial)`: nobody has signed in to that tenant here). Switching back restores
  /// the first one.
  ///
  /// ```swift
  /// let user = try await auth.switchTenant(to: "acme-corp-x1y2")
  /// ```
  ///
  /// - Cancellation: a sign-in or refresh of the previous tenant that is still running is
  ///   superseded, and nothing it returns is kept. Cancelling the calling task during the
  ///   restore leaves the new tenant signed out, its session stored.
  /// - Returns: the new tenant's restored user, or `nil`.
  /// - Throws: ``AuthError/Code/misconfigured`` when the backend cannot serve another tenant
  ///   (nothing changed); what ``restorePreviousSignIn()`` throws.
  @discardableResult
  public func switchTenant(to tenantID: String?) async throws -> User? {
    guard tenantID != self.tenantID else { return machine.signedInUser }
    let next = try backend.forTenant(tenantID)
    guard next.tenantID == tenantID else {
      throw AuthError(
        .misconfigured,
        "The backend answered for \(next.tenantID ?? "the project's own users") when asked for "
          + "\(tenantID ?? "the project's own users"); its forTenant(_:) must set tenantID.")
    }
    try await userOperation {
      await perform(machine.sessionEnded(.tenantChanged, byUser: true))
      backend = next
      stopFollowingStore()
      store = tenantID.map { sessions.scoped(toTenant: $0) } ?? sessions
      currentTenant.withLock { $0 = tenantID }
      passwordPolicyRead = nil
    }
    return try await restorePreviousSignIn()
  }
}
