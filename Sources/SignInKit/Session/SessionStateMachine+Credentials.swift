extension SessionStateMachine {
  /// The identity providers whose credential state can end `session`: the one it signed in
  /// with, and the account's only sign-in method. A launch asks them before it shows anything.
  static func credentialChecks(for session: StoredSession) -> [ProviderID] {
    let methods = session.user.providers.map(\.providerID).filter { $0 != .anonymous }
    var providers = [session.signInProvider]
    if methods.count == 1, methods[0] != session.signInProvider { providers += methods }
    return providers.filter { provider in methods.contains(provider) }
  }

  /// Whether an identity provider's credential state for `session`'s user ends the session, and
  /// why. Only a provider the session depends on can end it (``credentialChecks(for:)``): then
  /// ``ProviderCredentialState/revoked`` and ``ProviderCredentialState/notFound`` end it, as
  /// Apple's sample does (the Apple ID on this device no longer knows the user), and
  /// ``ProviderCredentialState/transferred`` too. A check that could not answer (`nil`: offline,
  /// out of time, or a provider that cannot tell) keeps the session.
  ///
  /// | state | session signed in with the provider, or it is the only method | otherwise |
  /// |---|---|---|
  /// | authorized, no answer | keep | keep |
  /// | revoked, notFound | sign out: ``SignOutReason/credentialRevoked(_:)`` | keep |
  /// | transferred | sign out: ``SignOutReason/credentialTransferred(_:)`` | keep |
  static func signOutReason(
    for state: ProviderCredentialState?, of provider: ProviderID, session: StoredSession
  ) -> SignOutReason? {
    guard credentialChecks(for: session).contains(provider) else { return nil }
    switch state {
    case .revoked, .notFound: return .credentialRevoked(provider)
    case .transferred: return .credentialTransferred(provider)
    case .authorized, nil: return nil
    }
  }

  /// An identity provider answered about the user of `identity`: why the session ends, or `nil`
  /// to keep it (see ``signOutReason(for:of:session:)``; a session that changed meanwhile is
  /// kept).
  func credentialAnswered(
    _ state: ProviderCredentialState?, by provider: ProviderID, about identity: Identity
  ) -> SignOutReason? {
    guard isCurrent(identity), let session else { return nil }
    return Self.signOutReason(for: state, of: provider, session: session)
  }

  /// The restore's step that asks `provider` about `stored`'s user, by the user's id there.
  static func check(_ provider: ProviderID, of stored: StoredSession) -> RestoreStep {
    .checkCredential(provider, rawID: stored.user.providers.first { $0.providerID == provider }?.rawID ?? "")
  }
}
