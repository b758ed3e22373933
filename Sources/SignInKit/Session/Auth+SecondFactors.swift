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

  // MARK: - SMS second factor

  /// Texts a code to `phoneNumber` to enroll it as a second factor of the signed-in user
  /// (FirebaseAuth's `PhoneMultiFactorGenerator`), whose email must be verified; finish with
  /// ``finishPhoneEnrollment(_:code:displayName:)``.
  ///
  /// - Throws: ``AuthError/Code/invalidPhoneNumber`` (nothing was sent),
  ///   ``AuthError/Code/unverifiedEmail``, ``AuthError/Code/requiresRecentLogin``,
  ///   ``AuthError/Code/noCurrentUser``, ``AuthError/Code/appVerificationFailed``.
  public func startPhoneEnrollment(phoneNumber: String) async throws -> PhoneVerification {
    let number = try Self.checkedE164(phoneNumber)
    return try await userOperation {
      try await withSignedInUser { signedIn in
        let sentAt = now()
        guard
          case .codeSent(let sent) = try await backend.secondFactor(
            .startPhoneEnrollment(idToken: signedIn.token, phoneNumber: number))
        else { throw AuthError(.invalidResponse, "The backend started the enrollment without texting a code.") }
        return try keepPending(
          PhoneVerification(
            verificationID: sent.verificationID, phoneNumber: number, purpose: .secondFactorEnrollment,
            sentAt: sentAt,
            expiresAt: sentAt.addingTimeInterval((sent.expiresIn ?? configuration.phoneCodeLifetime).seconds)))
      }
    }
  }

  /// Finishes an SMS enrollment with the texted code. The backend revokes the account's other
  /// sessions; this one continues with the new tokens it returns.
  ///
  /// - Returns: the user, with the phone in ``User/secondFactors``.
  /// - Throws: ``AuthError/Code/invalidVerificationCode`` (try again),
  ///   ``AuthError/Code/verificationExpired`` (start again).
  @discardableResult
  public func finishPhoneEnrollment(_ verification: PhoneVerification, code: String, displayName: String? = nil)
    async throws -> User
  {
    try checkUsable(verification, for: .secondFactorEnrollment)
    let user = try await userOperation {
      try await withSignedInUser { signedIn in
        let reply = try await backend.secondFactor(
          .finalizePhoneEnrollment(
            idToken: signedIn.token, verificationID: verification.verificationID, code: code,
            displayName: displayName))
        return try await applySecondFactorChange(reply, of: signedIn)
      }
    }
    try? forgetPending(verification)
    return user
  }

  /// Texts a code to the SMS factor `enrollmentID` of a sign-in that threw
  /// ``AuthError/Code/secondFactorRequired``; finish it with
  /// ``resolveSignIn(_:verification:code:)``. Nothing changes in the session meanwhile.
  ///
  /// - Throws: ``AuthError/Code/invalidCredential`` when the challenge expired (sign in again),
  ///   ``AuthError/Code/noSuchProvider`` for a factor the account does not have.
  public func sendSecondFactorCode(for challenge: SecondFactorChallenge, enrollmentID: String) async throws
    -> PhoneVerification
  {
    try await userOperation {
      let sentAt = now()
      guard
        case .codeSent(let sent) = try await backend.secondFactor(
          .startPhoneSignIn(pendingCredential: challenge.pendingCredential, enrollmentID: enrollmentID))
      else { throw AuthError(.invalidResponse, "The backend started the sign-in's second step without a code.") }
      let number = challenge.factors.first { $0.enrollmentID == enrollmentID }?.phoneNumber ?? "+"
      return try keepPending(
        PhoneVerification(
          verificationID: sent.verificationID, phoneNumber: number,
          purpose: .secondFactorSignIn(enrollmentID: enrollmentID), sentAt: sentAt,
          expiresAt: sentAt.addingTimeInterval((sent.expiresIn ?? configuration.phoneCodeLifetime).seconds)))
    }
  }

  /// Finishes a sign-in that threw ``AuthError/Code/secondFactorRequired`` with the code texted
  /// for `verification` (FirebaseAuth's `MultiFactorResolver.resolveSignIn` with a phone
  /// assertion). Shows ``AuthState/signingIn(_:)`` as any sign-in does.
  ///
  /// - Throws: ``AuthError/Code/invalidVerificationCode`` (try again),
  ///   ``AuthError/Code/verificationExpired``, ``AuthError/Code/invalidCredential`` when the
  ///   challenge expired.
  public func resolveSignIn(_ challenge: SecondFactorChallenge, verification: PhoneVerification, code: String)
    async throws -> SignInResult
  {
    guard case .secondFactorSignIn(let enrollmentID) = verification.purpose else {
      throw AuthError(
        .invalidVerificationCode,
        "This code was not sent for a sign-in's second step; send one with sendSecondFactorCode.")
    }
    try checkUsable(verification, for: verification.purpose)
    let result = try await signIn(as: challenge.firstFactor) {
      let reply = try await backend.secondFactor(
        .finalizePhoneSignIn(
          pendingCredential: challenge.pendingCredential, enrollmentID: enrollmentID,
          verificationID: verification.verificationID, code: code))
      guard case .tokens(let tokens, let uid) = reply else {
        throw AuthError(.invalidResponse, "The backend finished the sign-in without tokens; sign in again.")
      }
      return SignInResponse(localID: uid, tokens: tokens, isNewUser: false)
    }
    try? forgetPending(verification)
    return result
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
