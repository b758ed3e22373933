import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// A step of a second factor that waits for its account.
protocol PendingStep {
  var uid: String { get }
}

/// A TOTP enrollment started by `mfaEnrollment:start` for `uid`, with its secret; stored by its
/// `sessionInfo` until it is finished or expires.
struct PendingEnrollment: Codable, Sendable, PendingStep {
  static let kind = "enrollment"
  var uid: String
  var secret: [UInt8]
}

/// A first factor that passed for `uid` (signing in with `provider`), waiting for its second;
/// stored by its `mfaPendingCredential` until it is finished or expires.
struct PendingSignIn: Codable, Sendable, PendingStep {
  static let kind = "sign-in"
  var uid: String
  var provider: ProviderID
  /// Wrong codes tried with it; at ``EmbeddedBackend/secondFactorAttempts`` it is spent.
  var wrongCodes = 0
}

/// Who a first factor (a password, an email link, an identity provider) proved the caller to
/// be, as ``EmbeddedBackend/steps.finishFirstFactor(_:_:)`` takes it.
struct FirstFactor {
  var uid: String
  var email: String?
  var isNewUser = false
  /// The first factor joined the signed-in user of an ID token (a link), who signed in already:
  /// no second factor is asked.
  var isLink = false
  /// The first factor proved two things at once: a passkey whose authenticator verified the
  /// person (biometrics or a PIN: something held and something known or been). No second
  /// factor is asked; a passkey that reports presence only is a first factor like a password.
  var provesSecondFactor = false
}

extension EmbeddedBackend {
  /// How long an enrollment may wait for its first code, and a sign-in for its second factor.
  static let secondFactorWindow: TimeInterval = 5 * 60
  /// Wrong codes one pending sign-in takes before it is spent: a six-digit code cannot be
  /// guessed by trying them all.
  static let secondFactorAttempts = 5

  /// Identity Platform's TOTP and SMS second factors, as its v2 endpoints behave: enrolling
  /// needs a verified email, TOTP codes are RFC 6238 (HMAC-SHA1, 6 digits, 30 s, one step of
  /// leeway either side), SMS codes are six digits texted to the number (as
  /// ``Configuration-swift.struct/delivery`` says), and enrolling or withdrawing revokes the account's other sessions
  /// (new tokens come back).
  ///
  /// - Throws: `UNVERIFIED_EMAIL`, `INVALID_CODE`, `MFA_ENROLLMENT_NOT_FOUND`,
  ///   `INVALID_MFA_PENDING_CREDENTIAL`, and the ID-token errors.
  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    switch request {
    case .startPhoneEnrollment(let idToken, let phoneNumber):
      return .codeSent(
        PhoneCodeResponse(
          verificationID: try await phone.startPhoneEnrollment(idToken: idToken, phoneNumber: phoneNumber),
          expiresIn: .seconds(Self.phoneCodeWindow)))
    case .finalizePhoneEnrollment(let idToken, let verificationID, let code, let displayName):
      let tokens = try phone.finalizePhoneEnrollment(
        idToken: idToken, sessionInfo: verificationID, code: code, displayName: displayName)
      return .tokens(tokens, uid: try self.tokens.verifiedUser(of: tokens.idToken).uid)
    case .startPhoneSignIn(let pendingCredential, let enrollmentID):
      return .codeSent(
        PhoneCodeResponse(
          verificationID: try await phone.startPhoneSecondFactor(
            pendingCredential: pendingCredential, enrollmentID: enrollmentID),
          expiresIn: .seconds(Self.phoneCodeWindow)))
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
      let deadline = now().addingTimeInterval(Self.secondFactorWindow)
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
        throw Self.wrongCode
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
        guard pending.wrongCodes < Self.secondFactorAttempts else {
          try store.pendingSteps.delete(PendingSignIn.kind, key: pendingCredential)
          throw AuthError(
            firebase: .tooManyAttemptsTryLater,
            message: "Too many wrong codes for this sign-in. Sign in again to get another try.")
        }
        try store.pendingSteps.update(PendingSignIn.kind, key: pendingCredential, record: pending)
        throw Self.wrongCode
      }
      let response: SecondFactorResponse = try store.transaction {
        try store.pendingSteps.consume(PendingSignIn.kind, key: pendingCredential, gone: Self.signInSpent)
        // Read again inside the transaction: a code another process accepted meanwhile is spent.
        let current = try store.existingAccount(uid: pending.uid).secondFactors?
          .first { $0.enrollmentID == enrollmentID }?.lastUsedStep
        guard current.map({ step > $0 }) ?? true else { throw Self.wrongCode }
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

  /// A pending sign-in another call or process finished meanwhile.
  static var signInSpent: AuthError {
    AuthError(
      firebase: .invalidMfaPendingCredential, message: "The sign-in was finished or waited too long; sign in again.")
  }

  static var wrongCode: AuthError {
    AuthError(firebase: .invalidCode, message: "The code is wrong or too old. Enter the one the app shows now.")
  }
}
