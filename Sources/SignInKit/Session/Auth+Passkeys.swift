import Foundation

extension Auth {
  /// Makes a passkey for the signed-in user with `authenticator` and enrols it, named `name`
  /// (FirebaseAuth's `startPasskeyEnrollment` then `finalizePasskeyEnrollment`): afterwards
  /// ``signInWithPasskey(using:presentation:)`` signs in to this account without a password.
  ///
  /// The backend issues a one-time challenge; the authenticator (a sheet on Apple platforms)
  /// makes the passkey; the backend checks and keeps it. The account's passkeys are excluded,
  /// so an authenticator holding one of them makes no second.
  ///
  /// - Parameters:
  ///   - name: what the settings screen lists it as ("iPhone", "Work laptop").
  ///   - authenticator: what makes the passkey: the platform's, or a development one.
  /// - Returns: the user, with the passkey in ``User/passkeys``.
  /// - Cancellation: cancelling the calling task dismisses the sheet; nothing is enrolled.
  /// - Throws: ``AuthError/Code/userCancelled`` (the person declined),
  ///   ``AuthError/Code/relyingPartyMismatch``, ``AuthError/Code/passkeyRefused``,
  ///   ``AuthError/Code/noCurrentUser``, ``AuthError/Code/requiresRecentLogin`` when the
  ///   session's sign-in is more than 5 minutes old (a passkey signs in for as long as it is
  ///   enrolled: reauthenticate first), ``AuthError/Code/tooManyRequests`` when the account holds
  ///   as many passkeys as the backend allows, ``AuthError/Code/operationNotAllowed`` on a
  ///   backend without passkeys (a Firebase project without Identity Platform's passkey preview).
  @discardableResult
  public func enrollPasskey(named name: String, using authenticator: some PasskeyAuthenticator) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        guard case .creationOptions(var options) = try await backend.passkey(.startEnrollment(idToken: signedIn.token))
        else { throw AuthError(.invalidResponse, "The backend started the enrolment without creation options.") }
        let user = signedIn.session.user
        if options.userName.isEmpty { options.userName = user.email ?? user.phoneNumber ?? user.uid }
        if options.displayName.isEmpty { options.displayName = user.displayName ?? options.userName }
        let registration = try await authenticator.register(options)
        guard
          case .tokens(let tokens, let uid) = try await backend.passkey(
            .finishEnrollment(idToken: signedIn.token, name: name, registration: registration))
        else { throw AuthError(.invalidResponse, "The backend finished the enrolment without tokens; try again.") }
        return try await applyAccountChange(of: signedIn, expecting: uid, tokens: tokens)
      }
    }
  }

  /// Signs in with a passkey (FirebaseAuth's `startPasskeySignIn` then
  /// `finalizePasskeySignIn`): the backend issues a challenge for its relying party, the person
  /// picks one of their passkeys for it (no email typed: a discoverable sign-in), and the
  /// backend signs in the passkey's account. Shows ``AuthState/signingIn(_:)`` with
  /// ``ProviderID/passkey`` meanwhile.
  ///
  /// - Parameters:
  ///   - authenticator: what holds the passkeys: the platform's, or a development one.
  ///   - presentation: ``PasskeyAssertionRequest/Presentation/autoFill`` offers the passkeys in
  ///     the username field's QuickType bar and waits until one is picked there; start it when
  ///     the sign-in screen appears and cancel the task when it goes.
  /// - Cancellation: cancelling the calling task dismisses the sheet (or ends the AutoFill
  ///   request); the state goes back to what it was.
  /// - Throws: ``AuthError/Code/userCancelled``, ``AuthError/Code/noPasskey`` (none on this
  ///   device, or the account no longer has it), ``AuthError/Code/relyingPartyMismatch``,
  ///   ``AuthError/Code/passkeyRefused``, ``AuthError/Code/userDisabled``,
  ///   ``AuthError/Code/secondFactorRequired`` when the authenticator reported presence but did
  ///   not verify the person and the account has a second factor (finish with
  ///   ``resolveSignIn(_:enrollmentID:code:)``; a passkey that verified the person counts as
  ///   both factors).
  @discardableResult
  public func signInWithPasskey(
    using authenticator: some PasskeyAuthenticator, presentation: PasskeyAssertionRequest.Presentation = .modal
  ) async throws -> SignInResult {
    try await signIn(as: .passkey) {
      guard case .requestOptions(var options) = try await backend.passkey(.startSignIn) else {
        throw AuthError(.invalidResponse, "The backend started the passkey sign-in without request options.")
      }
      options.presentation = presentation
      let assertion = try await authenticator.authenticate(options)
      guard case .tokens(let tokens, let uid) = try await backend.passkey(.finishSignIn(assertion)) else {
        throw AuthError(.invalidResponse, "The backend finished the passkey sign-in without tokens; try again.")
      }
      return SignInResponse(localID: uid, tokens: tokens, isNewUser: false)
    }
  }

  /// Removes the passkey `credentialID` (``PasskeyInfo/credentialID``) from the signed-in user
  /// (FirebaseAuth's `unenrollPasskey`). The passkey stays on the person's devices until they
  /// delete it there; it no longer signs in.
  ///
  /// - Returns: the user without it.
  /// - Throws: ``AuthError/Code/noPasskey`` when it is not enrolled,
  ///   ``AuthError/Code/requiresRecentLogin``.
  @discardableResult
  public func removePasskey(credentialID: String) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        guard signedIn.session.user.passkeys.contains(where: { $0.credentialID == credentialID }) else {
          throw AuthError(
            .noPasskey,
            "No passkey with that id is enrolled on this account; its passkeys are in User.passkeys.")
        }
        var request = UpdateAccountRequest(idToken: signedIn.token)
        request.deletePasskeys = [credentialID]
        _ = try await backend.update(request)
        return try await applyAccountChange(of: signedIn)
      }
    }
  }
}
