import Foundation

extension Auth {
  // MARK: - TOTP second factor

  /// Starts enrolling a TOTP second factor for the signed-in user (FirebaseAuth's
  /// `TOTPMultiFactorGenerator.generateSecret`): show the secret as a QR code
  /// (``TOTPSecret/otpauthURI(accountName:issuer:)``), then pass it back with the first code
  /// the app shows to ``finishTOTPEnrollment(_:code:displayName:)`` before its deadline.
  ///
  /// - Throws: ``AuthError/Code/unverifiedEmail`` (verify the email first),
  ///   ``AuthError/Code/requiresRecentLogin``, ``AuthError/Code/noCurrentUser``,
  ///   ``AuthError/Code/operationNotAllowed`` on a backend without second factors.
  public func startTOTPEnrollment() async throws -> TOTPSecret {
    try await userOperation {
      try await withSignedInUser { signedIn in
        guard case .secret(let secret) = try await backend.secondFactor(.startTOTPEnrollment(idToken: signedIn.token))
        else { throw AuthError(.invalidResponse, "The backend answered the enrollment without a secret; try again.") }
        return secret
      }
    }
  }

  /// Finishes a TOTP enrollment with a code from the authenticator app. The backend revokes
  /// the account's other sessions; this one continues with the new tokens it returns.
  ///
  /// - Returns: the user, with the new factor in ``User/secondFactors``.
  /// - Throws: ``AuthError/Code/invalidVerificationCode`` (the enrollment stays open: try the
  ///   next code), ``AuthError/Code/invalidCredential`` when it expired.
  @discardableResult
  public func finishTOTPEnrollment(_ secret: TOTPSecret, code: String, displayName: String? = nil) async throws
    -> User
  {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let reply = try await backend.secondFactor(
          .finalizeTOTPEnrollment(
            idToken: signedIn.token, sessionInfo: secret.sessionInfo, code: code, displayName: displayName))
        return try await applySecondFactorChange(reply, of: signedIn)
      }
    }
  }

  /// Removes the second factor `enrollmentID` from the signed-in user (FirebaseAuth's
  /// `multiFactor.unenroll`).
  ///
  /// - Returns: the user without it.
  /// - Throws: ``AuthError/Code/noSuchProvider`` when it is not enrolled,
  ///   ``AuthError/Code/requiresRecentLogin``.
  @discardableResult
  public func unenrollSecondFactor(_ enrollmentID: String) async throws -> User {
    try await userOperation {
      try await withSignedInUser { signedIn in
        let reply = try await backend.secondFactor(.withdraw(idToken: signedIn.token, enrollmentID: enrollmentID))
        return try await applySecondFactorChange(reply, of: signedIn)
      }
    }
  }

  /// Finishes a sign-in that threw ``AuthError/Code/secondFactorRequired``, with a code of one
  /// of its ``SecondFactorChallenge/factors`` (FirebaseAuth's `MultiFactorResolver.resolveSignIn`).
  /// Shows ``AuthState/signingIn(_:)`` with the first factor's provider as any sign-in does.
  ///
  /// - Throws: ``AuthError/Code/invalidVerificationCode`` (the challenge stays usable: try the
  ///   next code), ``AuthError/Code/invalidCredential`` when the challenge expired.
  public func resolveSignIn(_ challenge: SecondFactorChallenge, enrollmentID: String, code: String) async throws
    -> SignInResult
  {
    try await signIn(as: challenge.firstFactor) {
      let reply = try await backend.secondFactor(
        .finalizeTOTPSignIn(pendingCredential: challenge.pendingCredential, enrollmentID: enrollmentID, code: code))
      guard case .tokens(let tokens, let uid) = reply else {
        throw AuthError(.invalidResponse, "The backend finished the sign-in without tokens; sign in again.")
      }
      return SignInResponse(localID: uid, tokens: tokens, isNewUser: false)
    }
  }

  private func applySecondFactorChange(_ reply: SecondFactorResponse, of signedIn: SignedInContext) async throws
    -> User
  {
    guard case .tokens(let tokens, let uid) = reply else {
      throw AuthError(.invalidResponse, "The backend answered without new tokens; try again.")
    }
    return try await applyAccountChange(of: signedIn, expecting: uid, tokens: tokens)
  }
}
