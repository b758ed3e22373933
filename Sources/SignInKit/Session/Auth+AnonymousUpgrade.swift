extension Auth {
  /// How ``upgradeAnonymousUser(with:handOver:)-(SignInProvider,_)`` ended.
  ///
  /// - Concurrency: `Sendable` value.
  public enum AnonymousUpgrade: Sendable {
    /// The credential was linked: the same uid, now with a sign-in method.
    case linked(SignInResult)
    /// The credential belonged to an existing account: that account is signed in, `handOver`
    /// ran, and the anonymous user was deleted, unless the backend refused
    /// (`anonymousUserDeleted` is then `false`, and that account keeps its data).
    case signedInToExistingAccount(SignInResult, anonymousUserDeleted: Bool)
  }

  /// Upgrades the signed-in anonymous user with `provider`'s credential, the flow an app that
  /// starts anonymous needs. When nobody else has the credential, it is linked and the uid stays.
  /// When an account has it already (``AuthError/Code/credentialAlreadyInUse``), that account is
  /// signed in with the error's ``AuthError/updatedCredential`` (no second sheet), `handOver`
  /// moves what the anonymous user made to it, and the anonymous user is deleted.
  ///
  /// ```swift
  /// let outcome = try await auth.upgradeAnonymousUser(with: google) { anonymous, existing in
  ///   try await cart.move(from: anonymous.uid, to: existing.uid)
  /// }
  /// ```
  ///
  /// Nothing is lost on the way: when `handOver` throws, the existing account stays signed in,
  /// the anonymous user is not deleted (its data stays where it was), and the error is rethrown.
  ///
  /// - Cancellation: cancelling the calling task cancels the step in progress; a step that
  ///   finished stays done (the existing account may be signed in already).
  /// - Throws: ``AuthError/Code/noCurrentUser`` when nobody is signed in,
  ///   ``AuthError/Code/operationNotAllowed`` when the user is not anonymous (use
  ///   ``link(with:)-(SignInProvider)``), the other conflicts (``AuthError/Code/emailAlreadyInUse``,
  ///   ``AuthError/Code/accountExistsWithDifferentCredential``: sign in with the account's own
  ///   method first), and what the sign-in or `handOver` throws.
  /// ``upgradeAnonymousUser(with:handOver:)-(SignInProvider,_)`` with a credential the app holds already: the
  /// ``AuthError/updatedCredential`` of a link that found the account exists, so the person is
  /// not asked to sign in at the provider a second time.
  ///
  /// - Throws: as ``upgradeAnonymousUser(with:handOver:)-(SignInProvider,_)``.
  public func upgradeAnonymousUser(
    with credential: ProviderCredential,
    handOver: @Sendable (_ anonymous: User, _ existing: User) async throws -> Void
  ) async throws -> AnonymousUpgrade {
    try await upgradeAnonymousUser(with: HeldCredential(credential), handOver: handOver)
  }

  public func upgradeAnonymousUser(
    with provider: some SignInProvider,
    handOver: @Sendable (_ anonymous: User, _ existing: User) async throws -> Void
  ) async throws -> AnonymousUpgrade {
    settleLaunch()
    guard let anonymous = session?.user else { throw AuthError.noCurrentUser }
    guard anonymous.isAnonymous else {
      throw AuthError(
        .operationNotAllowed,
        "The signed-in user is not anonymous; link the credential with link(with:) instead.")
    }
    // Kept to delete the anonymous user once another account is signed in.
    let anonymousToken = try await idToken()
    let credential: ProviderCredential
    do {
      return .linked(try await link(with: provider))
    } catch let error as AuthError where error.code == .credentialAlreadyInUse {
      guard let updated = error.updatedCredential else { throw error }
      credential = updated
    }
    let existing = try await signIn(with: credential)
    try await handOver(anonymous, existing.user)
    do {
      try await backend.delete(DeleteAccountRequest(idToken: anonymousToken))
      return .signedInToExistingAccount(existing, anonymousUserDeleted: true)
    } catch {
      return .signedInToExistingAccount(existing, anonymousUserDeleted: false)
    }
  }
}
