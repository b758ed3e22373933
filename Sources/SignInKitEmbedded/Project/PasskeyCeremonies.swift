import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// Passkey enrollment and sign-in (WebAuthn): one-time challenges for the relying party of
/// ``EmbeddedBackend/Configuration/passkeys``, and the authenticator's answers checked against them.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.passkeys`).
package struct PasskeyCeremonies {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer
  let steps: SignInSteps

  private static let transports: Set<String> = ["usb", "nfc", "ble", "smart-card", "hybrid", "internal"]

  /// The relying party of ``Configuration/passkeys``.
  var relyingParty: WebAuthnRelyingParty {
    let policy = configuration.passkeys
    return WebAuthnRelyingParty(
      id: policy.relyingPartyID, origins: Set(["https://\(policy.relyingPartyID)"] + policy.additionalOrigins),
      requiresUserVerification: policy.requiresUserVerification)
  }

  /// `accounts/passkeyEnrollment:start`: a one-time challenge for a new passkey of the user of
  /// `idToken`, the account's user handle, and its passkeys to exclude.
  ///
  /// A passkey signs in for as long as it is enrolled, so adding one is a sensitive change, as
  /// a new password is: the session must have signed in within the last 5 minutes
  /// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`), and on an account with a second factor that sign-in
  /// passed it (every first factor of such an account asks for it). A password change revokes
  /// the account's sessions but leaves its passkeys enrolled, as Google and Apple accounts do;
  /// remove a lost device's passkey from the account's list.
  ///
  /// - Throws: `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`; `TOO_MANY_ATTEMPTS_TRY_LATER` when the account
  ///   holds ``Limits/passkeysPerAccount`` passkeys already.
  package func startPasskeyEnrollment(idToken: String) throws -> PasskeyRegistrationRequest {
    let (uid, _) = try tokens.verifiedRecentUser(of: idToken)
    let account = try store.existingAccount(uid: uid)
    try checkRoomForPasskey(on: account)
    let challenge = try Crypto.randomBytes(32)
    try steps.addPending(
      PendingPasskeyCeremony(uid: uid), kind: PendingPasskeyCeremony.enrollment, key: Base64URL.encode(challenge),
      until: now().addingTimeInterval(configuration.passkeys.challengeLifetime.seconds))
    return PasskeyRegistrationRequest(
      relyingPartyID: configuration.passkeys.relyingPartyID, challenge: Data(challenge), userID: Data(uid.utf8),
      userName: account.email ?? account.phoneNumber ?? uid, displayName: account.displayName ?? "",
      excludedCredentialIDs: (account.passkeys ?? []).compactMap { Base64URL.decode($0.credentialID).map { Data($0) } },
      requiresUserVerification: configuration.passkeys.requiresUserVerification,
      algorithms: COSEKey.algorithms.map(Int.init))
  }

  /// `accounts/passkeyEnrollment:finalize`: checks the registration against the challenge it
  /// answers (spent whatever the outcome) and keeps the passkey, named `name`.
  ///
  /// - Throws: `INVALID_AUTHENTICATOR_RESPONSE` saying what is wrong (another account's
  ///   challenge, a credential already enrolled anywhere, a refused response).
  package func finalizePasskeyEnrollment(
    idToken: String, name: String, registration: PasskeyRegistration
  ) throws -> (tokens: IssuedTokens, uid: String) {
    let (uid, provider) = try tokens.verifiedUser(of: idToken)
    let clientData = Array(registration.clientDataJSON)
    let challenge = try spendChallenge(in: clientData, kind: PendingPasskeyCeremony.enrollment) { $0.uid == uid }
    let checked: WebAuthnRelyingParty.Registration
    do {
      checked = try relyingParty.verifyRegistration(
        clientDataJSON: clientData, attestationObject: Array(registration.attestationObject), challenge: challenge)
    } catch {
      throw Self.refused(error)
    }
    guard checked.credentialID == Array(registration.credentialID) else {
      throw Self.refused("the credential id sent is not the one the authenticator made")
    }
    let credentialID = Base64URL.encode(checked.credentialID)
    guard try store.account(passkey: credentialID) == nil else {
      throw Self.refused("this passkey is enrolled already; an authenticator should have excluded it")
    }
    let trimmed = try FieldLimits.checked(name, .passkeyName).trimmingCharacters(in: .whitespacesAndNewlines)
    let transports = Self.knownTransports(registration.transports)
    let passkey = EmbeddedDatabase.Passkey(
      credentialID: credentialID, name: trimmed.isEmpty ? "Passkey" : trimmed,
      publicKey: Base64URL.encode(checked.publicKey), signCount: checked.signCount, enrolledAt: now(),
      transports: transports.isEmpty ? nil : transports, backupEligible: checked.backupEligible)
    return try store.transaction {
      try store.updateAccount(uid: uid) { account in
        // Counted again in the transaction: two enrolments at once cannot pass the cap together.
        try checkRoomForPasskey(on: account)
        account.passkeys = (account.passkeys ?? []) + [passkey]
      }
      return (try tokens.issueTokens(for: uid, provider: provider), uid)
    }
  }

  /// Refuses a new passkey on an account that holds ``Limits/passkeysPerAccount`` already.
  private func checkRoomForPasskey(on account: EmbeddedDatabase.Account) throws {
    let cap = configuration.limits.passkeysPerAccount
    guard (account.passkeys ?? []).count < cap else {
      throw AuthError(
        firebase: .tooManyAttemptsTryLater,
        "This account has \(cap) passkeys, as many as it may hold. Remove one it no longer needs first.")
    }
  }

  /// The transports WebAuthn names (`usb`, `nfc`, `ble`, `smart-card`, `hybrid`, `internal`),
  /// each once, in the order sent; others are dropped, as a client ignores values it does not
  /// know.
  static func knownTransports(_ transports: [String]) -> [String] {
    var kept: [String] = []
    for transport in transports where Self.transports.contains(transport) && !kept.contains(transport) {
      kept.append(transport)
    }
    return kept
  }

  /// `accounts/passkeySignIn:start`: a one-time challenge for any passkey of the relying party.
  ///
  /// Each ceremony is stored under its own challenge until it is answered or expires: starting
  /// one never ends another's. Their number in all is bounded by ``Limits/pending``.
  package func startPasskeySignIn(sessionID: String?) throws -> PasskeyAssertionRequest {
    let sessionID = try sessionID.map { try FieldLimits.checked($0, .sessionID) }
    let challenge = try Crypto.randomBytes(32)
    let key = Base64URL.encode(challenge)
    try steps.addPending(
      PendingPasskeyCeremony(uid: "", sessionID: sessionID), kind: PendingPasskeyCeremony.signIn, key: key,
      until: now().addingTimeInterval(configuration.passkeys.challengeLifetime.seconds), owner: key)
    return PasskeyAssertionRequest(
      relyingPartyID: configuration.passkeys.relyingPartyID, challenge: Data(challenge),
      requiresUserVerification: configuration.passkeys.requiresUserVerification)
  }

  /// The sign-in of ``finalizePasskeySignIn(_:sessionID:)``, its token not signed yet.
  func checkedPasskeySignIn(
    _ assertion: PasskeyAssertion, sessionID: String?
  ) throws -> UnsignedReply<SignInResponse> {
    let clientData = Array(assertion.clientDataJSON)
    let challenge = try spendChallenge(in: clientData, kind: PendingPasskeyCeremony.signIn) {
      $0.sessionID == sessionID
    }
    let credentialID = Base64URL.encode(Array(assertion.credentialID))
    guard let account = try store.account(passkey: credentialID),
      let passkey = account.passkeys?.first(where: { $0.credentialID == credentialID })
    else {
      throw AuthError(
        firebase: .passkeyEnrollmentNotFound, message: "No account has this passkey. Enrol it, or sign in another way.")
    }
    if let handle = assertion.userHandle, !handle.isEmpty, Array(handle) != Array(account.uid.utf8) {
      throw Self.refused("the passkey's user handle names another account")
    }
    guard !account.disabled else { throw AuthError(firebase: .userDisabled) }
    return try steps.finishFirstFactor(.passkey) {
      // The counter is read and moved in the sign-in's write transaction: of two answers with
      // one counter value (a cloned authenticator), at two processes at once, one is refused.
      guard let storedCount = try store.passkeySignCount(credentialID) else {
        throw AuthError(
          firebase: .passkeyEnrollmentNotFound, message: "The passkey was removed from its account meanwhile.")
      }
      let checked: WebAuthnRelyingParty.Assertion
      do throws(WebAuthnRefusal) {
        checked = try relyingParty.verifyAssertion(
          clientDataJSON: clientData, authenticatorData: Array(assertion.authenticatorData),
          signature: Array(assertion.signature), challenge: challenge,
          publicKey: Base64URL.decode(passkey.publicKey) ?? [], signCount: storedCount)
      } catch {
        throw Self.refused(error)
      }
      guard try store.recordPasskeyUse(credentialID, from: storedCount, to: checked.signCount, at: now()) else {
        throw Self.refused("the passkey was used at the same time elsewhere; the authenticator may be cloned")
      }
      return FirstFactor(uid: account.uid, email: account.email, provesSecondFactor: checked.userVerified)
    }
  }

  /// The challenge `clientDataJSON` answers, when it is a live one of `kind` that `belongs`
  /// accepts; it is spent now, so no response answers it twice.
  private func spendChallenge(
    in clientDataJSON: [UInt8], kind: String, belongs: (PendingPasskeyCeremony) -> Bool
  ) throws -> [UInt8] {
    let client: CollectedClientData
    do {
      client = try CollectedClientData(json: clientDataJSON)
    } catch {
      throw Self.refused(error)
    }
    let key = Base64URL.encode(client.challenge)
    let pending: PendingPasskeyCeremony? = try store.pendingSteps.step(kind, key: key, now: now())
    guard let pending, belongs(pending) else {
      throw Self.refused("the challenge is unknown, used or expired, or was issued for another ceremony; start again")
    }
    try store.pendingSteps.consume(
      kind, key: key,
      gone: Self.refused("the challenge is unknown, used or expired, or was issued for another ceremony; start again"))
    return client.challenge
  }

  private static func refused(_ reason: some CustomStringConvertible) -> AuthError {
    // The reason goes on the wire too: a developer reading the emulator's reply sees it.
    AuthError(
      firebase: .invalidAuthenticatorResponse, "\(reason)", message: "The passkey's answer was refused: \(reason).")
  }

  /// `accounts/passkeySignIn:finalize`: checks the assertion against the challenge it answers
  /// (spent whatever the outcome) and the passkey's key and counter, and signs in its account.
  ///
  /// A passkey sign-in ends where every first factor does. When the authenticator verified the
  /// person (the UV flag: biometrics or a PIN), the passkey counts as both factors and the
  /// account's second factor is not asked; when it reported presence only, an account with a
  /// second factor answers `AuthError/Code/secondFactorRequired`, as after a password.
  ///
  /// - Throws: `PASSKEY_ENROLLMENT_NOT_FOUND` for a credential no account has,
  ///   `INVALID_AUTHENTICATOR_RESPONSE` saying what is wrong, `USER_DISABLED`,
  ///   `AuthError/Code/secondFactorRequired`.
  package nonisolated(nonsending) func finalizePasskeySignIn(_ assertion: PasskeyAssertion, sessionID: String?)
    async throws -> SignInResponse
  {
    try await checkedPasskeySignIn(assertion, sessionID: sessionID).signed()
  }
}
