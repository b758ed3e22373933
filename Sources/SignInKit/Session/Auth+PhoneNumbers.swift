import Foundation

extension Auth {
  /// The name of the store's record that keeps the last ``PhoneVerification``.
  static let phoneVerificationRecord = "phone-verification"

  // MARK: - Phone numbers as a sign-in method

  /// Texts a code to `phoneNumber` (FirebaseAuth's `PhoneAuthProvider.verifyPhoneNumber`): the
  /// code then signs in (``signIn(with:code:)``), links the number to the signed-in user
  /// (``linkPhoneNumber(with:code:)``) or replaces theirs (``updatePhoneNumber(with:code:)``).
  ///
  /// The number is checked to be E.164 before anything is sent. The verification is kept in the
  /// store until it is used or expires (``pendingPhoneVerification()``), so a person who leaves
  /// the app to read the text comes back to it.
  ///
  /// - Parameter phoneNumber: `+`, the country code, then the number, digits only
  ///   (`+15555550100`).
  /// - Throws: ``AuthError/Code/invalidPhoneNumber`` (nothing was sent),
  ///   ``AuthError/Code/quotaExceeded``, ``AuthError/Code/tooManyRequests``,
  ///   ``AuthError/Code/appVerificationFailed``; cancelling the calling task throws
  ///   ``AuthError/Code/cancelled``.
  public func verifyPhoneNumber(_ phoneNumber: String) async throws -> PhoneVerification {
    let number = try Self.checkedE164(phoneNumber)
    return try await userOperation {
      let sentAt = now()
      let response = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: number))
      return try keepPending(
        PhoneVerification(
          verificationID: response.verificationID, phoneNumber: number, purpose: .phoneNumber, sentAt: sentAt,
          expiresAt: sentAt.addingTimeInterval((response.expiresIn ?? configuration.phoneCodeLifetime).seconds)))
    }
  }

  /// Signs in with the code texted for `verification`: the account with that number, made now
  /// when there is none (``SignInResult/isNewUser``). Shows ``AuthState/signingIn(_:)`` with
  /// ``ProviderID/phone`` meanwhile.
  ///
  /// - Throws: ``AuthError/Code/invalidVerificationCode`` (the verification stays usable: let the
  ///   person type again), ``AuthError/Code/verificationExpired`` (ask for a new code; checked
  ///   before anything is sent once ``PhoneVerification/expiresAt`` has passed),
  ///   ``AuthError/Code/userDisabled``, ``AuthError/Code/secondFactorRequired``.
  public func signIn(with verification: PhoneVerification, code: String) async throws -> SignInResult {
    try checkUsable(verification, for: .phoneNumber)
    let result = try await signIn(as: .phone) {
      try await backend.signInWithPhoneNumber(
        PhoneSignInRequest(verificationID: verification.verificationID, code: code))
    }
    try? forgetPending(verification)
    return result
  }

  /// Links the number of `verification` to the signed-in user, who has none; the uid stays.
  ///
  /// - Throws: ``AuthError/Code/credentialAlreadyInUse`` when another account has the number,
  ///   ``AuthError/Code/providerAlreadyLinked`` when the user has a number already (replace it
  ///   with ``updatePhoneNumber(with:code:)``), and the errors of ``signIn(with:code:)``.
  public func linkPhoneNumber(with verification: PhoneVerification, code: String) async throws -> SignInResult {
    try checkUsable(verification, for: .phoneNumber)
    let result = try await userOperation {
      try await withSignedInUser { signedIn in
        if signedIn.session.user.providers.contains(where: { $0.providerID == .phone }) {
          throw AuthError(
            .providerAlreadyLinked,
            "This account already has a phone number; replace it with updatePhoneNumber, or unlink it first.")
        }
        let response = try await backend.signInWithPhoneNumber(
          PhoneSignInRequest(
            verificationID: verification.verificationID, code: code, idToken: signedIn.token, operation: .link))
        let user = try await applyAccountChange(of: signedIn, expecting: response.localID, tokens: response.tokens)
        return SignInResult(user: user, isNewUser: false, providerID: .phone)
      }
    }
    try? forgetPending(verification)
    return result
  }

  /// Makes the number of `verification` the signed-in user's, in place of theirs (FirebaseAuth's
  /// `updatePhoneNumber`): the code proves the new number.
  ///
  /// - Returns: the user with the new number.
  /// - Throws: ``AuthError/Code/credentialAlreadyInUse`` when another account has the number,
  ///   ``AuthError/Code/requiresRecentLogin``, and the errors of ``signIn(with:code:)``.
  @discardableResult
  public func updatePhoneNumber(with verification: PhoneVerification, code: String) async throws -> User {
    try checkUsable(verification, for: .phoneNumber)
    let user = try await userOperation {
      try await withSignedInUser { signedIn in
        let response = try await backend.signInWithPhoneNumber(
          PhoneSignInRequest(
            verificationID: verification.verificationID, code: code, idToken: signedIn.token, operation: .update))
        return try await applyAccountChange(of: signedIn, expecting: response.localID, tokens: response.tokens)
      }
    }
    try? forgetPending(verification)
    return user
  }

  /// The verification the last ``verifyPhoneNumber(_:)`` (or second-factor code) made, when it
  /// has not been used and has not expired: read from the store, so it survives a relaunch.
  ///
  /// - Throws: ``AuthError/Code/storage`` when the store cannot be read.
  public func pendingPhoneVerification() throws -> PhoneVerification? {
    guard let data = try store.loadRecord(named: Self.phoneVerificationRecord),
      let verification = try? JSONDecoder().decode(PhoneVerification.self, from: data)
    else { return nil }
    guard !verification.isExpired(at: now()) else {
      try? store.saveRecord(nil, named: Self.phoneVerificationRecord)
      return nil
    }
    return verification
  }

  // MARK: - Shared steps

  /// `number` when it is E.164.
  ///
  /// - Throws: ``AuthError/Code/invalidPhoneNumber`` saying what to type.
  static func checkedE164(_ number: String) throws -> String {
    let trimmed = number.filter { !" ()-.".contains($0) }
    guard PhoneVerification.isE164(trimmed) else {
      throw AuthError(
        .invalidPhoneNumber,
        "\(number.removingControlCharacters().prefix(32)) is not a phone number in international form: type + and "
          + "the country code, then the number (+15555550100).")
    }
    return trimmed
  }

  /// Refuses a verification made for something else, or one that expired.
  func checkUsable(_ verification: PhoneVerification, for purpose: PhoneVerification.Purpose) throws {
    guard verification.purpose == purpose else {
      throw AuthError(
        .invalidVerificationCode,
        "This code was sent for \(verification.purpose), not for \(purpose); ask for a code for this step.")
    }
    guard !verification.isExpired(at: now()) else {
      try? forgetPending(verification)
      throw AuthError(.verificationExpired, "The texted code has expired; ask for a new one. Nothing was sent.")
    }
  }

  /// Keeps `verification` in the store as the pending one, and returns it. A store that cannot
  /// keep it does not stop the flow: the app still holds the value.
  func keepPending(_ verification: PhoneVerification) throws -> PhoneVerification {
    if let data = try? JSONEncoder().encode(verification) {
      try? store.saveRecord(data, named: Self.phoneVerificationRecord)
    }
    return verification
  }

  /// Forgets `verification` when it is the pending one.
  func forgetPending(_ verification: PhoneVerification) throws {
    guard try pendingPhoneVerification()?.verificationID == verification.verificationID else { return }
    try store.saveRecord(nil, named: Self.phoneVerificationRecord)
  }
}
