import Foundation

extension Auth {
  // MARK: - Email links

  /// Emails `email` a link that signs in with no password (FirebaseAuth's `sendSignInLink`).
  /// The app keeps the address (the link does not carry it), receives the link, and passes
  /// both to ``signIn(email:link:)``. Needs no signed-in user.
  ///
  /// - Parameters:
  ///   - email: the address to sign in; keep it to pass to ``signIn(email:link:)``.
  ///   - settings: where the link continues; it must have a
  ///     ``ActionCodeSettings/continueURL`` and ``ActionCodeSettings/handlesCodeInApp`` set.
  /// - Throws: ``AuthError/Code/misconfigured`` when the settings miss either,
  ///   ``AuthError/Code/invalidEmail``, network codes.
  public func sendSignInLink(to email: String, settings: ActionCodeSettings) async throws {
    guard settings.continueURL != nil, settings.handlesCodeInApp else {
      throw AuthError(
        .misconfigured,
        "A sign-in link needs ActionCodeSettings with a continueURL and handlesCodeInApp: true, "
          + "so the app that sent it can finish the sign-in.")
    }
    try await userOperation {
      _ = try await backend.sendOobCode(.emailSignIn(email: email), settings: settings)
    }
  }

  /// Whether `link` is an email sign-in link: it (or the deep link it wraps, as Firebase
  /// Dynamic Links and app links do in `link=` or `deep_link_id=`) has `mode=signIn` and an
  /// `oobCode`. Synchronous; it looks at the text only.
  public nonisolated func isSignInLink(_ link: String) -> Bool {
    Self.signInCode(in: link) != nil
  }

  /// Signs in with an emailed sign-in link, creating the account on first use; the email
  /// counts as verified. Shows ``AuthState/signingIn(_:)`` with ``ProviderID/password`` as any
  /// sign-in does; cancelling the calling task cancels the request.
  ///
  /// - Parameters:
  ///   - email: the address the link was sent to.
  ///   - link: the whole link, as the app received it.
  /// - Throws: ``AuthError/Code/invalidActionCode`` (not a sign-in link, used already),
  ///   ``AuthError/Code/expiredActionCode``, ``AuthError/Code/invalidEmail`` (another address).
  public func signIn(email: String, link: String) async throws -> SignInResult {
    let code = try Self.requireSignInCode(in: link)
    return try await signIn(as: .password) {
      try await backend.signInWithEmailLink(EmailLinkSignInRequest(email: email, oobCode: code))
    }
  }

  /// Adds an email, proved by an emailed sign-in link, to the signed-in user (an anonymous
  /// user keeps their uid and is no longer anonymous).
  ///
  /// - Throws: ``AuthError/Code/noCurrentUser``, ``AuthError/Code/emailAlreadyInUse``, and what
  ///   ``signIn(email:link:)`` throws.
  public func linkEmail(_ email: String, link: String) async throws -> SignInResult {
    let code = try Self.requireSignInCode(in: link)
    return try await userOperation {
      try await withSignedInUser { signedIn in
        let response = try await backend.signInWithEmailLink(
          EmailLinkSignInRequest(email: email, oobCode: code, idToken: signedIn.token))
        let user = try await applyAccountChange(of: signedIn, expecting: response.localID, tokens: response.tokens)
        return SignInResult(user: user, isNewUser: false, providerID: .password)
      }
    }
  }

  /// The `oobCode` of a sign-in link, looking one level into `link=` and `deep_link_id=`.
  static func signInCode(in link: String) -> String? {
    guard let components = URLComponents(string: link) else { return nil }
    let items = components.queryItems ?? []
    func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
    if value("mode") == "signIn", let code = value("oobCode"), !code.isEmpty { return code }
    for wrapped in ["link", "deep_link_id"] {
      if let inner = value(wrapped), inner != link, let code = signInCode(in: inner) { return code }
    }
    return nil
  }

  private static func requireSignInCode(in link: String) throws -> String {
    guard let code = signInCode(in: link) else {
      throw AuthError(
        .invalidActionCode,
        "That is not a sign-in link (it has no mode=signIn and oobCode). Pass the whole link from the email.")
    }
    return code
  }

  // MARK: - Reading and using codes

  /// What an emailed action code is for and for whom, without using it up (FirebaseAuth's
  /// `checkActionCode`). Needs no signed-in user.
  ///
  /// - Throws: ``AuthError/Code/invalidActionCode``, ``AuthError/Code/expiredActionCode``.
  public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
    try await userOperation {
      let response = try await backend.resetPassword(ResetPasswordRequest(oobCode: code))
      guard let requestType = response.requestType else {
        throw AuthError(.invalidResponse, "The backend did not say what the code is for; try again.")
      }
      return ActionCodeInfo(
        operation: ActionCodeInfo.Operation(requestType: requestType), email: response.email,
        newEmail: response.newEmail)
    }
  }

  /// The email whose password a reset code resets, without using the code up: what a reset
  /// screen shows before asking for the new password.
  ///
  /// - Throws: ``AuthError/Code/invalidActionCode`` also when the code is for something else
  ///   than a password reset; ``AuthError/Code/expiredActionCode``.
  public func verifyPasswordResetCode(_ code: String) async throws -> String {
    let info = try await checkActionCode(code)
    guard info.operation == .passwordReset, let email = info.email else {
      throw AuthError(.invalidActionCode, "That code is not a password-reset code. Use the code from the reset email.")
    }
    return email
  }

  /// Emails `newEmail` a link that, once opened (or its code passed to ``applyActionCode(_:)``),
  /// makes it the signed-in user's email, verified (FirebaseAuth's `sendEmailVerification(beforeUpdatingEmail:)`).
  /// Until then the email stays as it is; a project that refuses direct email changes
  /// (``AuthError/Code/emailChangeNeedsVerification``) needs this instead of ``updateEmail(_:)``.
  ///
  /// - Throws: ``AuthError/Code/noCurrentUser``, ``AuthError/Code/emailAlreadyInUse``,
  ///   ``AuthError/Code/invalidEmail``, ``AuthError/Code/requiresRecentLogin``.
  public func sendEmailVerification(beforeUpdatingEmail newEmail: String, settings: ActionCodeSettings? = nil)
    async throws
  {
    try await userOperation {
      try await withSignedInUser { signedIn in
        _ = try await backend.sendOobCode(
          .verifyAndChangeEmail(idToken: signedIn.token, newEmail: newEmail), settings: settings)
      }
    }
  }
}
