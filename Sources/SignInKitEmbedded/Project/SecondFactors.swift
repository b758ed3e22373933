import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// Identity Platform's second factors: TOTP and SMS enrollment, sign-in with them, and their
/// withdrawal.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor
///   (`EmbeddedBackend.secondFactors`); its async calls run on their caller's actor.
package struct SecondFactors {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer
  let steps: SignInSteps
  let throttle: LoginThrottle
  let administration: AccountAdministration
  let phone: PhoneCodes

  /// Identity Platform's TOTP and SMS second factors, as its v2 endpoints behave: enrolling
  /// needs a verified email, TOTP codes are RFC 6238 (HMAC-SHA1, 6 digits, 30 s, one step of
  /// leeway either side), SMS codes are six digits texted to the number (as
  /// ``Configuration-swift.struct/delivery`` says), and enrolling or withdrawing revokes the account's other sessions
  /// (new tokens come back).
  ///
  /// - Throws: `UNVERIFIED_EMAIL`, `INVALID_CODE`, `MFA_ENROLLMENT_NOT_FOUND`,
  ///   `INVALID_MFA_PENDING_CREDENTIAL`, and the ID-token errors.
  package nonisolated(nonsending) func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse
  {
    switch request {
    case .startPhoneEnrollment(let idToken, let phoneNumber):
      return .codeSent(
        PhoneCodeResponse(
          verificationID: try await phone.startPhoneEnrollment(idToken: idToken, phoneNumber: phoneNumber),
          expiresIn: .seconds(EmbeddedBackend.phoneCodeWindow)))
    case .finalizePhoneEnrollment(let idToken, let verificationID, let code, let displayName):
      let tokens = try phone.finalizePhoneEnrollment(
        idToken: idToken, sessionInfo: verificationID, code: code, displayName: displayName)
      return .tokens(tokens, uid: try self.tokens.verifiedUser(of: tokens.idToken).uid)
    case .startPhoneSignIn(let pendingCredential, let enrollmentID):
      return .codeSent(
        PhoneCodeResponse(
          verificationID: try await phone.startPhoneSecondFactor(
            pendingCredential: pendingCredential, enrollmentID: enrollmentID),
          expiresIn: .seconds(EmbeddedBackend.phoneCodeWindow)))
    case .finalizePhoneSignIn(let pendingCredential, let enrollmentID, let verificationID, let code):
      let (tokens, uid) = try phone.finalizePhoneSecondFactor(
        pendingCredential: pendingCredential, enrollmentID: enrollmentID, sessionInfo: verificationID, code: code)
      return .tokens(tokens, uid: uid)
    case .startTOTPEnrollment(let idToken):
      let (uid, _) = try tokens.verifiedRecentUser(of: idToken)
      guard try store.account(uid: uid)?.emailVerified == true else {
        throw AuthError(firebase: .unverifiedEmail)
      }
      let secret = try Crypto.randomBytes(20)
      let session = Base64URL.encode(try Crypto.randomBytes(24))
      let deadline = now().addingTimeInterval(EmbeddedBackend.secondFactorWindow)
      try steps.addPending(
        PendingEnrollment(uid: uid, secret: secret), kind: PendingEnrollment.kind, key: session, until: deadline)
      return .secret(
        TOTPSecret(
          secretKey: Base32.encode(secret, padded: false), enrollmentDeadline: deadline, sessionInfo: session))

    case .finalizeTOTPEnrollment(let idToken, let sessionInfo, let code, let displayName):
      try FieldLimits.check(displayName, .secondFactorName)
      let (uid, provider) = try tokens.verifiedUser(of: idToken)
      let pending: PendingEnrollment? = try store.pendingSteps.step(
        PendingEnrollment.kind, key: sessionInfo, now: now())
      guard let pending, pending.uid == uid else {
        throw AuthError(
          firebase: .invalidSessionInfo, message: "The enrollment expired or is not this user's; start it again.")
      }
      guard let step = OneTimePassword.matchedStep(code, secret: pending.secret, at: now()) else {
        throw EmbeddedBackend.wrongCode
      }
      let factor = EmbeddedDatabase.SecondFactor(
        enrollmentID: Base64URL.encode(try Crypto.randomBytes(12)), displayName: displayName,
        secret: Base32.encode(pending.secret, padded: false), enrolledAt: now(), lastUsedStep: step)
      return try store.transaction {
        try store.pendingSteps.delete(PendingEnrollment.kind, key: sessionInfo)
        try store.updateAccount(uid: uid) { $0.secondFactors = ($0.secondFactors ?? []) + [factor] }
        try administration.revokeSessions(of: uid, at: now())
        return .tokens(try tokens.issueTokens(for: uid, provider: provider), uid: uid)
      }

    case .withdraw(let idToken, let enrollmentID):
      let (uid, provider) = try tokens.verifiedRecentUser(of: idToken)
      guard try store.account(uid: uid)?.secondFactors?.contains(where: { $0.enrollmentID == enrollmentID }) == true
      else {
        throw AuthError(firebase: .mfaEnrollmentNotFound, message: "That second factor is not enrolled here.")
      }
      return try store.transaction {
        try store.updateAccount(uid: uid) { account in
          let remaining = (account.secondFactors ?? []).filter { $0.enrollmentID != enrollmentID }
          account.secondFactors = remaining.isEmpty ? nil : remaining
        }
        try administration.revokeSessions(of: uid, at: now())
        return .tokens(try tokens.issueTokens(for: uid, provider: provider), uid: uid)
      }

    case .finalizeTOTPSignIn(let pendingCredential, let enrollmentID, let code):
      let found: PendingSignIn? = try store.pendingSteps.step(PendingSignIn.kind, key: pendingCredential, now: now())
      guard var pending = found, let account = try store.account(uid: pending.uid) else {
        throw AuthError(
          firebase: .invalidMfaPendingCredential, message: "The sign-in waited too long for its second factor.")
      }
      guard
        let factor = account.secondFactors?.first(where: { $0.enrollmentID == enrollmentID && $0.phoneNumber == nil })
      else {
        throw AuthError(firebase: .mfaEnrollmentNotFound, message: "That second factor is not enrolled here.")
      }
      // Wrong codes count toward the account's throttle, as wrong passwords do.
      let key = LoginThrottle.throttleKey(of: account)
      try throttle.checkThrottle(for: key)
      guard
        let step = OneTimePassword.matchedStep(
          code, secret: Base32.decode(factor.secret) ?? [], at: now(), after: factor.lastUsedStep)
      else {
        try throttle.noteLoginFailure(key)
        pending.wrongCodes += 1
        guard pending.wrongCodes < EmbeddedBackend.secondFactorAttempts else {
          try store.pendingSteps.delete(PendingSignIn.kind, key: pendingCredential)
          throw AuthError(
            firebase: .tooManyAttemptsTryLater,
            message: "Too many wrong codes for this sign-in. Sign in again to get another try.")
        }
        try store.pendingSteps.update(PendingSignIn.kind, key: pendingCredential, record: pending)
        throw EmbeddedBackend.wrongCode
      }
      let response: SecondFactorResponse = try store.transaction {
        try store.pendingSteps.consume(PendingSignIn.kind, key: pendingCredential, gone: EmbeddedBackend.signInSpent)
        // Read again inside the transaction: a code another process accepted meanwhile is spent.
        let current = try store.existingAccount(uid: pending.uid).secondFactors?
          .first { $0.enrollmentID == enrollmentID }?.lastUsedStep
        guard current.map({ step > $0 }) ?? true else { throw EmbeddedBackend.wrongCode }
        try store.updateAccount(uid: pending.uid) { account in
          account.lastLoginAt = now()
          account.secondFactors = account.secondFactors?.map {
            var used = $0
            if used.enrollmentID == enrollmentID { used.lastUsedStep = step }
            return used
          }
        }
        return .tokens(try tokens.issueTokens(for: pending.uid, provider: pending.provider), uid: pending.uid)
      }
      throttle.forgetLoginFailures(key)
      return response
    }
  }
}
