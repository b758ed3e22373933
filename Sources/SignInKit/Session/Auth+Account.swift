import Foundation

extension Auth {
  // MARK: - Linking

  /// Runs a backend exchange of `credential`; a conflict with another account is rethrown with
  /// the account's email and a credential to sign in to it, where the backend gave none: the
  /// credential itself, and the email it names.
  func exchangeConflictAware<T: Sendable>(
    _ credential: ProviderCredential, _ exchange: () async throws -> T
  ) async throws -> T {
    if let tenant = credential.tenantID, tenant != tenantID {
      throw AuthError(
        .tenantMismatch,
        "The \(credential.providerID) sign-in was for tenant \(tenant), but this Auth serves "
          + "\(tenantID.map { "tenant \($0)" } ?? "the project's own users"); nothing changed. Give the provider "
          + "the Auth's tenant.")
    }
    do {
      return try await exchange()
    } catch let error as AuthError where error.isAccountConflict {
      // The email the credential names: the provider's, or its ID token's claim.
      throw error.withConflict(email: AdditionalUserInfo(credential: credential).email, credential: credential)
    }
  }

  /// Links an email and password to the signed-in user (for example an anonymous one). The uid
  /// stays the same.
  ///
  /// - Throws: ``AuthError/Code/noCurrentUser``, ``AuthError/Code/emailAlreadyInUse``,
  ///   ``AuthError/Code/weakPassword``, ``AuthError/Code/invalidEmail``.
  public func linkEmail(_ email: String, password: String) async throws -> SignInResult {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let response: SignInResponse
        do {
          response = try await backend.signUp(SignUpRequest(email: email, password: password, idToken: signedIn.token))
        } catch let error as AuthError {
          throw error.withConflict(email: email.lowercased(), credential: nil)
        }
        let user = try await applyAccountChange(
          of: signedIn, expecting: response.localID, tokens: response.tokens)
        return SignInResult(user: user, isNewUser: false, providerID: .password)
      }
    }
  }

  /// Links an identity provider's credential to the signed-in user; the uid stays the same.
  ///
  /// - Throws: ``AuthError/Code/credentialAlreadyInUse`` when the credential belongs to another
  ///   account, ``AuthError/Code/noCurrentUser``, and the provider's own errors.
  public func link(with provider: some SignInProvider) async throws -> SignInResult {
    let providerID = await provider.id
    return try await userOperation {
      try await withSignedInUser { signedIn in
        let credential = try await provider.credential()
        let response = try await exchangeConflictAware(credential) {
          try await backend.signInWithIdp(IdpSignInRequest(credential: credential, idToken: signedIn.token))
        }
        let user = try await applyAccountChange(
          of: signedIn, expecting: response.localID, tokens: response.tokens)
        return SignInResult(
          user: user, isNewUser: false, providerID: providerID, credential: credential, answeredWith: response)
      }
    }
  }

  /// Links a credential the app already holds (see ``signIn(with:)-(ProviderCredential)``) to
  /// the signed-in user; the uid stays the same.
  ///
  /// - Throws: as ``link(with:)-(SignInProvider)``.
  public func link(with credential: ProviderCredential) async throws -> SignInResult {
    try await link(with: HeldCredential(credential))
  }

  /// Removes a linked provider from the signed-in user.
  ///
  /// - Throws: ``AuthError/Code/noSuchProvider`` when it is not linked.
  public func unlink(_ provider: ProviderID) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        guard signedIn.session.user.providers.contains(where: { $0.providerID == provider }) else {
          let linked = signedIn.session.user.providers.map(\.providerID.rawValue)
          throw AuthError(
            .noSuchProvider,
            "\(provider) is not linked to this account; "
              + (linked.isEmpty ? "it has no sign-in method linked." : "linked: \(linked.joined(separator: ", ")).")
          )
        }
        _ = try await backend.update(
          UpdateAccountRequest(idToken: signedIn.token, deleteProviders: [provider]))
        return try await applyAccountChange(of: signedIn)
      }
    }
  }

  // MARK: - Profile

  /// Fetches the signed-in user's profile again from the backend.
  ///
  /// - Throws: ``AuthError/Code/noCurrentUser``; a terminal code (the account was deleted or
  ///   disabled elsewhere) after signing the user out.
  public func reload() async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in try await applyAccountChange(of: signedIn) }
    }
  }

  /// Changes the display name and photo. A `nil` argument leaves that field as it is; an empty
  /// display name removes it.
  public func updateProfile(displayName: String?, photoURL: URL?) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        var request = UpdateAccountRequest(idToken: signedIn.token, photoURL: photoURL)
        if displayName == "" {
          request.deleteAttributes = [.displayName]
        } else {
          request.displayName = displayName
        }
        _ = try await backend.update(request)
        return try await applyAccountChange(of: signedIn)
      }
    }
  }

  /// Changes the signed-in user's email. The backend issues new tokens (the old ones are
  /// revoked); they are stored before the change is published.
  ///
  /// - Returns: the user with the new email.
  ///
  /// - Throws: ``AuthError/Code/requiresRecentLogin`` (call a `reauthenticate` method, then try
  ///   again), ``AuthError/Code/emailAlreadyInUse``, ``AuthError/Code/invalidEmail``.
  @discardableResult
  public func updateEmail(_ email: String) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let response = try await backend.update(UpdateAccountRequest(idToken: signedIn.token, email: email))
        return try await applyAccountChange(of: signedIn, tokens: response.tokens)
      }
    }
  }

  /// Changes the signed-in user's password; new tokens are stored as for ``updateEmail(_:)``.
  ///
  /// - Returns: the signed-in user, as the backend now describes them.
  ///
  /// - Throws: ``AuthError/Code/weakPassword``, ``AuthError/Code/requiresRecentLogin``.
  @discardableResult
  public func updatePassword(_ password: String) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let response = try await backend.update(
          UpdateAccountRequest(idToken: signedIn.token, password: password))
        return try await applyAccountChange(of: signedIn, tokens: response.tokens)
      }
    }
  }

  /// Deletes the signed-in account, then signs out with ``SignOutReason/userDeleted``.
  ///
  /// An account that signs in with Apple must also revoke Apple's token (App Store Review
  /// Guideline 5.1.1(v)): use ``deleteAccount(reauthenticatingWith:)`` or
  /// ``deleteAccount(revokingAppleAuthorizationCode:)`` for it instead.
  ///
  /// - Throws: ``AuthError/Code/requiresRecentLogin``; the account and session are then kept.
  public func deleteAccount() async throws {
    try await userOperation {
      try await withSignedInUser { signedIn in
        try await backend.delete(DeleteAccountRequest(idToken: signedIn.token))
        // The provider's stored session (Google's refresh token and scopes) goes with the
        // account: the machine's effect.
        try await endSession(.userDeleted, byUser: true)
      }
    }
  }

  // MARK: - Sign in with Apple and account deletion

  /// Revokes the user's Sign in with Apple token at Apple with the authorization code of a sign-in
  /// (``AdditionalUserInfo/authorizationCode``), through the backend (Identity Toolkit's
  /// `accounts:revokeToken`), as FirebaseAuth's `revokeToken(withAuthorizationCode:)` does. The
  /// account and session are unchanged; Apple stops listing the app under the Apple ID.
  ///
  /// To delete an account, prefer ``deleteAccount(revokingAppleAuthorizationCode:)`` or
  /// ``deleteAccount(reauthenticatingWith:)``, which revoke first and then delete.
  ///
  /// - Cancellation: cancels the request; nothing changes.
  /// - Throws: ``AuthError/Code/noCurrentUser``; ``AuthError/Code/invalidCredential`` for a code
  ///   that is not this user's, was used, or expired (codes last five minutes: sign in with
  ///   Apple again for a new one).
  public func revokeAppleToken(authorizationCode: String) async throws {
    try await userOperation {
      try await withSignedInUser { signedIn in
        try await backend.revokeToken(.apple(authorizationCode: authorizationCode, idToken: signedIn.token))
      }
    }
  }

  /// Deletes the signed-in account the way App Store Review Guideline 5.1.1(v) asks of an app
  /// with Sign in with Apple: first revokes the Apple token with `code` (the authorization code of
  /// a recent Sign in with Apple), then deletes the account and signs out with
  /// ``SignOutReason/userDeleted``.
  ///
  /// When the revocation fails nothing is deleted, so the user can try again. When the deletion
  /// fails after it (``AuthError/Code/requiresRecentLogin``), Apple's token is already revoked and
  /// the account is kept; ``deleteAccount(reauthenticatingWith:)`` avoids that by signing in again
  /// first.
  ///
  /// - Cancellation: cancels the request in flight; what completed stays done.
  /// - Throws: ``AuthError/Code/invalidCredential`` for an unusable code,
  ///   ``AuthError/Code/requiresRecentLogin``.
  public func deleteAccount(revokingAppleAuthorizationCode code: String) async throws {
    try await userOperation {
      try await withSignedInUser { signedIn in
        try await revokeAppleTokenAndDelete(code: code, idToken: signedIn.token)
      }
    }
  }

  /// Deletes the signed-in account after signing in with Apple again: the sheet gives a fresh
  /// authorization code and a recent sign-in, the Apple token is revoked with the code, then the
  /// account is deleted and the user signed out with ``SignOutReason/userDeleted``. The whole
  /// recipe FirebaseAuth's documentation gives, in one call.
  ///
  /// ```swift
  /// try await auth.deleteAccount(reauthenticatingWith: AppleProvider.systemSheet(presentingFrom: window))
  /// ```
  ///
  /// - Cancellation: closes the sheet or cancels the request in flight; what completed stays done.
  /// - Throws: ``AuthError/Code/userMismatch`` when the Apple ID is another account's (nothing
  ///   changes); ``AuthError/Code/misconfigured`` when the provider returns no authorization code;
  ///   the provider's and the backend's errors.
  public func deleteAccount(reauthenticatingWith apple: AppleProvider) async throws {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let credential = try await apple.credential()
        guard let code = credential.authorizationCode, !code.isEmpty else {
          throw AuthError(
            .misconfigured,
            "Sign in with Apple returned no authorization code, so Apple's token cannot be revoked; "
              + "nothing was deleted. Make sure the provider passes the credential's authorizationCode.")
        }
        let response = try await backend.signInWithIdp(IdpSignInRequest(credential: credential))
        guard response.localID == signedIn.session.user.uid else {
          throw AuthError(
            .userMismatch,
            "That Apple ID belongs to a different account than the signed-in one; nothing was deleted.")
        }
        try await revokeAppleTokenAndDelete(code: code, idToken: response.tokens.idToken)
      }
    }
  }

  private func revokeAppleTokenAndDelete(code: String, idToken: String) async throws {
    try await backend.revokeToken(.apple(authorizationCode: code, idToken: idToken))
    try await backend.delete(DeleteAccountRequest(idToken: idToken))
    try await endSession(.userDeleted, byUser: true)
  }

  // MARK: - Reauthentication

  /// Proves again that the user knows the password, for operations that need a recent sign-in.
  /// The session's tokens are replaced with fresh ones.
  ///
  /// - Throws: ``AuthError/Code/userMismatch`` when the credentials belong to another account
  ///   (nothing changes), ``AuthError/Code/wrongPassword``.
  public func reauthenticate(email: String, password: String) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let response = try await backend.signInWithPassword(
          PasswordSignInRequest(email: email, password: password))
        return try await applyAccountChange(
          of: signedIn, expecting: response.localID, tokens: response.tokens)
      }
    }
  }

  /// Signs in again with an identity provider for operations that need a recent sign-in.
  ///
  /// - Throws: ``AuthError/Code/userMismatch`` when the credential belongs to another account.
  public func reauthenticate(with provider: some SignInProvider) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let credential = try await provider.credential()
        let response = try await exchangeConflictAware(credential) {
          try await backend.signInWithIdp(IdpSignInRequest(credential: credential))
        }
        return try await applyAccountChange(
          of: signedIn, expecting: response.localID, tokens: response.tokens)
      }
    }
  }

  // MARK: - Out-of-band codes

  /// Asks the backend to email a password-reset code to `email`. Needs no signed-in user.
  ///
  /// - Parameters:
  ///   - email: the account's address.
  ///   - settings: where the email's link continues, and whether the app opens it.
  public func sendPasswordReset(to email: String, settings: ActionCodeSettings? = nil) async throws {
    try await userOperation {
      _ = try await backend.sendOobCode(.passwordReset(email: email), settings: settings)
    }
  }

  /// Sets a new password with a reset code from the email.
  ///
  /// - Throws: ``AuthError/Code/invalidActionCode``, ``AuthError/Code/expiredActionCode``,
  ///   ``AuthError/Code/weakPassword``.
  public func confirmPasswordReset(code: String, newPassword: String) async throws {
    try await userOperation {
      _ = try await backend.resetPassword(
        ResetPasswordRequest(oobCode: code, newPassword: newPassword))
    }
  }

  /// Asks the backend to email a verification code to the signed-in user's address.
  ///
  /// - Parameter settings: where the email's link continues, and whether the app opens it.
  public func sendEmailVerification(settings: ActionCodeSettings? = nil) async throws {
    try await userOperation {
      try await withSignedInUser { signedIn in
        _ = try await backend.sendOobCode(.verifyEmail(idToken: signedIn.token), settings: settings)
      }
    }
  }

  /// Applies an email-verification code, or one from
  /// ``sendEmailVerification(beforeUpdatingEmail:settings:)`` (which also changes the email).
  /// When it is the signed-in user's, their profile is reloaded and published.
  public func applyActionCode(_ code: String) async throws {
    try await userOperation {
      let response = try await backend.update(UpdateAccountRequest(oobCode: code))
      if let session, session.user.uid == response.account.localID {
        _ = try await withSignedInUser { signedIn in try await applyAccountChange(of: signedIn) }
      }
    }
  }

  // MARK: - Shared steps

  /// The signed-in session an account operation started with: its stored form, a valid ID
  /// token, and the identity its result must still belong to.
  struct SignedInContext: Sendable {
    let session: StoredSession
    let token: String
    let identity: SessionStateMachine.Identity
  }

  /// Runs `body` with the signed-in session and a valid ID token. A terminal error about the
  /// session signs the user out (as the Firebase SDKs do) before it is rethrown.
  func withSignedInUser<T: Sendable>(
    _ body: (SignedInContext) async throws -> T
  ) async throws -> T {
    guard session != nil, let identity = machine.identity else { throw AuthError.noCurrentUser }
    let token = try await idToken()
    let current = try machine.session(of: identity)
    do {
      return try await body(SignedInContext(session: current, token: token, identity: identity))
    } catch {
      let error = AuthError.wrapping(error)
      if let reason = machine.signOutReason(for: error, of: identity) {
        try? await endSession(reason, byUser: false)
      }
      throw error
    }
  }

  /// Looks the account up with the newest token, then stores and publishes the changed user
  /// (and `tokens`, when the backend issued new ones), if the identity is still the one the
  /// operation started with.
  ///
  /// - Parameter uid: when set, the uid the backend's reply must be for; another one throws
  ///   ``AuthError/Code/userMismatch`` and changes nothing.
  func applyAccountChange(
    of signedIn: SignedInContext, expecting uid: String? = nil, tokens: IssuedTokens? = nil
  ) async throws -> User {
    if let uid, uid != signedIn.session.user.uid {
      throw AuthError(
        .userMismatch,
        "Those credentials belong to a different account than the signed-in one; nothing "
          + "changed. Use the signed-in account's credentials, or sign out first.")
    }
    _ = try machine.session(of: signedIn.identity)
    let token = tokens?.idToken ?? signedIn.token
    let account = try await backend.lookup(LookupRequest(idToken: token))
    try Task.checkCancellation()
    var current = try machine.session(of: signedIn.identity)
    let previous = current
    var user = account.user
    // Anonymous until a credential is linked; a custom-token user never was.
    user.signedInAnonymously = current.user.isAnonymous && user.hasNoCredential
    let changed = current.user != user
    current.user = user
    if let tokens { current.replaceTokens(with: tokens, receivedAt: now()) }
    current = try await persist(current, replacing: previous)
    try await perform(
      machine.accountChanged(signedIn.identity, current, changed: changed, tokensReplaced: tokens != nil))
    return current.user
  }
}

extension Auth {
  /// What the project (or this `Auth`'s tenant) asks of a new password, read from the backend
  /// once and kept: check a new password with ``PasswordPolicy/unmet(by:)`` before
  /// ``signUp(email:password:)`` or ``updatePassword(_:)``.
  ///
  /// - Cancellation: the read stops and throws; nothing is kept.
  /// - Throws: the backend's error (a network failure); a screen then checks against
  ///   ``PasswordPolicy/firebaseDefault``.
  public func passwordPolicy() async throws -> PasswordPolicy {
    if let passwordPolicyRead { return passwordPolicyRead }
    let policy = try await backend.passwordPolicy()
    passwordPolicyRead = policy
    return policy
  }

  /// How the account with `email` signs in, for a screen that says which way to use (a linking
  /// conflict). Empty when no account has the email, and always when the project protects
  /// against email enumeration (Firebase's default for new projects): a screen then offers every
  /// method.
  ///
  /// - Cancellation: the call stops and throws.
  public func signInMethods(forEmail email: String) async throws -> [ProviderID] {
    try await backend.signInMethods(forEmail: email)
  }
}
