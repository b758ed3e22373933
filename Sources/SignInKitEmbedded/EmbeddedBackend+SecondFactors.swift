import Foundation
import SignInCrypto
import SignInKit

/// A TOTP enrollment started by `mfaEnrollment:start` for `uid`, with its secret.
struct PendingEnrollment: Sendable {
  var uid: String
  var secret: [UInt8]
  var expiresAt: Date
}

/// A first factor that passed for `uid` (signing in with `provider`), waiting for its second.
struct PendingSignIn: Sendable {
  var uid: String
  var provider: ProviderID
  var expiresAt: Date
}

extension EmbeddedBackend {
  /// How long an enrollment may wait for its first code, and a sign-in for its second factor.
  static let secondFactorWindow: TimeInterval = 5 * 60

  /// Identity Platform's TOTP second factor, as its v2 endpoints behave: enrolling needs a
  /// verified email, codes are RFC 6238 (HMAC-SHA1, 6 digits, 30 s, one step of leeway either
  /// side), and enrolling or withdrawing revokes the account's other sessions (new tokens come
  /// back).
  ///
  /// - Throws: `UNVERIFIED_EMAIL`, `INVALID_CODE`, `MFA_ENROLLMENT_NOT_FOUND`,
  ///   `INVALID_MFA_PENDING_CREDENTIAL`, and the ID-token errors.
  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    expirePendingSecondFactors()
    switch request {
    case .startTOTPEnrollment(let idToken):
      let (uid, _) = try verifiedRecentUser(of: idToken)
      guard database.accounts[uid]?.emailVerified == true else {
        throw Self.failure(
          .unverifiedEmail, "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.",
          "Verify the account's email before adding a second factor.")
      }
      let secret = try Crypto.randomBytes(20)
      let session = Base64URL.encode(try Crypto.randomBytes(24))
      let deadline = now().addingTimeInterval(Self.secondFactorWindow)
      pendingEnrollments[session] = PendingEnrollment(uid: uid, secret: secret, expiresAt: deadline)
      return .secret(
        TOTPSecret(
          secretKey: Base32.encode(secret, padded: false), enrollmentDeadline: deadline, sessionInfo: session))

    case .finalizeTOTPEnrollment(let idToken, let sessionInfo, let code, let displayName):
      let (uid, provider) = try verifiedUser(of: idToken)
      guard let pending = pendingEnrollments[sessionInfo], pending.uid == uid else {
        throw Self.failure(
          .invalidCredential, "INVALID_SESSION_INFO", "The enrollment expired or is not this user's; start it again.")
      }
      guard OneTimePassword.matches(code, secret: pending.secret, at: now()) else { throw Self.wrongCode }
      pendingEnrollments[sessionInfo] = nil
      let factor = EmbeddedDatabase.SecondFactor(
        enrollmentID: Base64URL.encode(try Crypto.randomBytes(12)), displayName: displayName,
        secret: Base32.encode(pending.secret, padded: false), enrolledAt: now())
      return try commit { database in
        database.accounts[uid]!.secondFactors = (database.accounts[uid]!.secondFactors ?? []) + [factor]
        Self.revokeSessions(of: uid, at: now(), in: &database)
        return .tokens(try issueTokens(for: uid, provider: provider, in: &database), uid: uid)
      }

    case .withdraw(let idToken, let enrollmentID):
      let (uid, provider) = try verifiedRecentUser(of: idToken)
      guard database.accounts[uid]?.secondFactors?.contains(where: { $0.enrollmentID == enrollmentID }) == true else {
        throw Self.failure(.noSuchProvider, "MFA_ENROLLMENT_NOT_FOUND", "That second factor is not enrolled here.")
      }
      return try commit { database in
        let remaining = database.accounts[uid]!.secondFactors!.filter { $0.enrollmentID != enrollmentID }
        database.accounts[uid]!.secondFactors = remaining.isEmpty ? nil : remaining
        Self.revokeSessions(of: uid, at: now(), in: &database)
        return .tokens(try issueTokens(for: uid, provider: provider, in: &database), uid: uid)
      }

    case .finalizeTOTPSignIn(let pendingCredential, let enrollmentID, let code):
      guard let pending = pendingSignIns[pendingCredential] else {
        throw Self.failure(
          .invalidCredential, "INVALID_MFA_PENDING_CREDENTIAL", "The sign-in waited too long for its second factor.")
      }
      guard
        let factor = database.accounts[pending.uid]?.secondFactors?.first(where: { $0.enrollmentID == enrollmentID })
      else {
        throw Self.failure(.noSuchProvider, "MFA_ENROLLMENT_NOT_FOUND", "That second factor is not enrolled here.")
      }
      guard OneTimePassword.matches(code, secret: Base32.decode(factor.secret) ?? [], at: now()) else {
        throw Self.wrongCode
      }
      pendingSignIns[pendingCredential] = nil
      return try commit { database in
        database.accounts[pending.uid]!.lastLoginAt = now()
        return .tokens(try issueTokens(for: pending.uid, provider: pending.provider, in: &database), uid: pending.uid)
      }
    }
  }

  /// Throws `AuthError/Code/secondFactorRequired` when `uid` has second factors, after
  /// recording the pending sign-in its second step completes.
  func requireSecondFactor(of uid: String, signingInWith provider: ProviderID) throws {
    guard let factors = database.accounts[uid]?.secondFactors, !factors.isEmpty else { return }
    // First factors that never finish must not pile up.
    expirePendingSecondFactors()
    let pending = Base64URL.encode(try Crypto.randomBytes(24))
    pendingSignIns[pending] = PendingSignIn(
      uid: uid, provider: provider, expiresAt: now().addingTimeInterval(Self.secondFactorWindow))
    throw AuthError.secondFactorRequired(
      SecondFactorChallenge(
        factors: database.accounts[uid]!.info.secondFactors, firstFactor: provider, pendingCredential: pending))
  }

  private func expirePendingSecondFactors() {
    let now = now()
    pendingEnrollments = pendingEnrollments.filter { $0.value.expiresAt > now }
    pendingSignIns = pendingSignIns.filter { $0.value.expiresAt > now }
  }

  private static var wrongCode: AuthError {
    failure(.invalidVerificationCode, "INVALID_CODE", "The code is wrong or too old. Enter the one the app shows now.")
  }
}
