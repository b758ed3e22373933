import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// A code "sent" to a phone number by `accounts:sendVerificationCode`, stored under its
/// `sessionInfo` until it is used, spent or expired. Like the emulator, nothing is sent: the
/// code is listed by ``EmbeddedBackend/verificationCodes()``.
struct PendingPhoneVerification: Codable, Sendable, PendingStep {
  /// What the code proves when it comes back.
  enum Purpose: Codable, Sendable, Equatable {
    /// A sign-in (or link) with the phone number as first factor.
    case signIn
    /// Adding the number as an SMS second factor of `uid`.
    case enrollment(uid: String)
    /// The second step of the pending sign-in `pendingCredential`, with factor `enrollmentID`.
    case secondFactor(pendingCredential: String, enrollmentID: String)
  }

  static let kind = "phone"
  var phoneNumber: String
  var code: String
  var purpose: Purpose? = .signIn
  /// Wrong codes tried with it; at ``EmbeddedBackend/secondFactorAttempts`` it is spent.
  var wrongCodes = 0
  /// Pending steps are counted per owner: here, per phone number.
  var uid: String { phoneNumber }
}

/// A verification code waiting for its phone number's owner, as
/// `/emulator/v1/projects/P/verificationCodes` lists it.
///
/// - Concurrency: `Sendable` value.
public struct PhoneVerificationCode: Sendable, Equatable {
  public var phoneNumber: String
  public var sessionInfo: String
  public var code: String
}

extension EmbeddedBackend {
  /// How long a code sent to a phone number can be used.
  static let phoneCodeWindow: TimeInterval = 10 * 60

  /// `accounts:sendVerificationCode`: makes a six-digit code for `phoneNumber` and returns the
  /// `sessionInfo` that names it. reCAPTCHA and app checks are not asked for, as in the emulator.
  ///
  /// - Throws: `INVALID_PHONE_NUMBER` (a missing number too, as Firebase answers it),
  ///   `TOO_MANY_ATTEMPTS_TRY_LATER` when too many codes wait.
  package func sendVerificationCode(phoneNumber: String?) throws -> String {
    try textCode(to: try Self.validatedPhoneNumber(phoneNumber ?? ""), for: .signIn)
  }

  /// Makes a six-digit code for `phone` with its purpose, and returns its `sessionInfo`.
  private func textCode(to phone: String, for purpose: PendingPhoneVerification.Purpose) throws -> String {
    // A number's live codes are never pushed out by newer sends (someone who knows the number
    // could otherwise void the code its owner is typing): past the limit, sends wait.
    let perNumber = configuration.limits.pendingPerAccount
    guard try store.pendingCount(PendingPhoneVerification.kind, uid: phone, now: now()) < perNumber else {
      throw AuthError(
        firebase: .tooManyAttemptsTryLater,
        message: "\(perNumber) codes sent to this number are still waiting; enter one of them, or ask again once they "
          + "expire (\(Int(Self.phoneCodeWindow / 60)) minutes after they were sent).")
    }
    let digits = try Crypto.randomDigits(6)
    let sessionInfo = Base64URL.encode(try Crypto.randomBytes(32))
    try addPending(
      PendingPhoneVerification(phoneNumber: phone, code: digits, purpose: purpose), kind: PendingPhoneVerification.kind,
      key: sessionInfo, until: now().addingTimeInterval(Self.phoneCodeWindow))
    return sessionInfo
  }

  /// The pending code of `sessionInfo` when `code` is its code and it was sent for `purpose`;
  /// it is not spent yet. A wrong code counts, and the fifth spends the session.
  ///
  /// - Throws: `MISSING_SESSION_INFO`, `MISSING_CODE`, `INVALID_SESSION_INFO`, `INVALID_CODE`.
  /// A texted code that is unknown, used (here or by another process meanwhile), expired or for
  /// another step.
  static var codeUsed: AuthError {
    AuthError(
      firebase: .invalidSessionInfo,
      message: "The verification session is unknown, used, expired or for another step. Ask for a new code.")
  }

  private func checkedCode(
    sessionInfo: String?, code: String?, purpose: PendingPhoneVerification.Purpose
  ) throws -> PendingPhoneVerification {
    guard let sessionInfo, !sessionInfo.isEmpty else {
      throw AuthError(firebase: .missingSessionInfo, message: "Send the sessionInfo the code came with.")
    }
    guard let code, !code.isEmpty else {
      throw AuthError(firebase: .missingCode, message: "Send the code the phone received.")
    }
    let kind = PendingPhoneVerification.kind
    let found: PendingPhoneVerification? = try store.pending(kind, key: sessionInfo, now: now())
    guard var pending = found, (pending.purpose ?? .signIn) == purpose else { throw Self.codeUsed }
    // Wrong codes count toward the number's throttle across sessions, as wrong passwords count
    // toward an email's: a new session per five guesses no longer buys more guesses.
    let throttle = "phone:\(pending.phoneNumber)"
    try checkThrottle(for: throttle, what: "this phone number", remedy: "with a new code")
    guard pending.code == code else {
      try noteLoginFailure(throttle)
      pending.wrongCodes += 1
      if pending.wrongCodes >= Self.secondFactorAttempts {
        try store.deletePending(kind, key: sessionInfo)
      } else {
        try store.updatePending(kind, key: sessionInfo, record: pending)
      }
      throw AuthError(firebase: .invalidCode, message: "The code is wrong. Check the text message.")
    }
    forgetLoginFailures(throttle)
    return pending
  }

  // MARK: - SMS second factors

  /// `mfaEnrollment:start` with `phoneEnrollmentInfo`: texts a code to `phoneNumber` for the
  /// user of `idToken`, whose email must be verified, and returns its `sessionInfo`.
  package func startPhoneEnrollment(idToken: String, phoneNumber: String?) throws -> String {
    let (uid, _) = try verifiedRecentUser(of: idToken)
    guard try store.account(uid: uid)?.emailVerified == true else {
      throw AuthError(firebase: .unverifiedEmail)
    }
    return try textCode(to: try Self.validatedPhoneNumber(phoneNumber ?? ""), for: .enrollment(uid: uid))
  }

  /// `mfaEnrollment:finalize` with `phoneVerificationInfo`: the code proves the number, which
  /// becomes a second factor; the user's other sessions end and new tokens come back.
  package func finalizePhoneEnrollment(
    idToken: String, sessionInfo: String?, code: String?, displayName: String?
  ) throws -> IssuedTokens {
    try FieldLimits.check(displayName, .secondFactorName)
    let (uid, provider) = try verifiedUser(of: idToken)
    let pending = try checkedCode(sessionInfo: sessionInfo, code: code, purpose: .enrollment(uid: uid))
    let factor = EmbeddedDatabase.SecondFactor(
      enrollmentID: Base64URL.encode(try Crypto.randomBytes(12)), displayName: displayName, secret: "",
      phoneNumber: pending.phoneNumber, enrolledAt: now())
    return try store.transaction {
      try store.consumePending(PendingPhoneVerification.kind, key: sessionInfo ?? "", gone: Self.codeUsed)
      try store.updateAccount(uid: uid) { $0.secondFactors = ($0.secondFactors ?? []) + [factor] }
      try revokeSessions(of: uid, at: now())
      return try issueTokens(for: uid, provider: provider)
    }
  }

  /// `mfaSignIn:start` with `phoneSignInInfo`: texts a code to the SMS factor `enrollmentID` of
  /// the sign-in waiting under `pendingCredential`, and returns its `sessionInfo`.
  package func startPhoneSecondFactor(pendingCredential: String, enrollmentID: String) throws -> String {
    let found: PendingSignIn? = try store.pending(PendingSignIn.kind, key: pendingCredential, now: now())
    guard let found, let account = try store.account(uid: found.uid) else {
      throw AuthError(
        firebase: .invalidMfaPendingCredential, message: "The sign-in waited too long for its second factor.")
    }
    guard
      let phone = account.secondFactors?.first(where: { $0.enrollmentID == enrollmentID })?.phoneNumber
    else {
      throw AuthError(firebase: .mfaEnrollmentNotFound, message: "That SMS second factor is not enrolled here.")
    }
    return try textCode(
      to: phone, for: .secondFactor(pendingCredential: pendingCredential, enrollmentID: enrollmentID))
  }

  /// `mfaSignIn:finalize` with `phoneVerificationInfo`: the texted code finishes the sign-in.
  package func finalizePhoneSecondFactor(
    pendingCredential: String, enrollmentID: String?, sessionInfo: String?, code: String?
  ) throws -> (tokens: IssuedTokens, uid: String) {
    let kind = PendingPhoneVerification.kind
    let found: PendingPhoneVerification? = try sessionInfo.flatMap { try store.pending(kind, key: $0, now: now()) }
    guard case .secondFactor(let credential, let factorID)? = found?.purpose, credential == pendingCredential,
      enrollmentID == nil || enrollmentID == factorID
    else {
      throw AuthError(
        firebase: .invalidSessionInfo, message: "The code was sent for another sign-in. Ask for a new code.")
    }
    _ = try checkedCode(
      sessionInfo: sessionInfo, code: code,
      purpose: .secondFactor(
        pendingCredential: credential, enrollmentID: factorID))
    let signIn: PendingSignIn? = try store.pending(PendingSignIn.kind, key: pendingCredential, now: now())
    guard let signIn else {
      throw AuthError(
        firebase: .invalidMfaPendingCredential, message: "The sign-in waited too long for its second factor.")
    }
    return try store.transaction {
      try store.consumePending(kind, key: sessionInfo ?? "", gone: Self.codeUsed)
      try store.consumePending(PendingSignIn.kind, key: pendingCredential, gone: Self.signInSpent)
      try store.updateAccount(uid: signIn.uid) { $0.lastLoginAt = now() }
      return (try issueTokens(for: signIn.uid, provider: signIn.provider), signIn.uid)
    }
  }

  // MARK: - AuthBackend

  public func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse {
    PhoneCodeResponse(
      verificationID: try sendVerificationCode(phoneNumber: request.phoneNumber),
      expiresIn: .seconds(Self.phoneCodeWindow))
  }

  /// The texted code signs in, or gives the user of `request.idToken` the number (as a link
  /// or an update alike, as the Firebase emulator does; `Auth` refuses a link to a user who has
  /// a number).
  public func signInWithPhoneNumber(_ request: PhoneSignInRequest) async throws -> SignInResponse {
    try await signInWithPhoneNumber(
      sessionInfo: request.verificationID, code: request.code, idToken: request.idToken
    ).response
  }

  /// The codes waiting for their numbers, oldest first.
  public func verificationCodes() -> [PhoneVerificationCode] {
    let kind = PendingPhoneVerification.kind
    let keys = (try? store.pendingKeys(kind, now: now())) ?? []
    return keys.compactMap { key in
      guard let pending: PendingPhoneVerification = try? store.pending(kind, key: key, now: now()) else { return nil }
      return PhoneVerificationCode(phoneNumber: pending.phoneNumber, sessionInfo: key, code: pending.code)
    }
  }

  /// `accounts:signInWithPhoneNumber`: the code of `sessionInfo` proves its phone number. With
  /// `idToken`, the number joins that user; otherwise the account with the number signs in, or
  /// a new one is made with it. The code works once.
  ///
  /// - Returns: the session and the proved phone number.
  /// - Throws: `MISSING_SESSION_INFO`, `MISSING_CODE`, `INVALID_SESSION_INFO` (unknown,
  ///   used, expired or spent by wrong codes), `INVALID_CODE`, `PHONE_NUMBER_EXISTS` (the number
  ///   is another account's), `USER_DISABLED`, and a second-factor challenge.
  package func signInWithPhoneNumber(
    sessionInfo: String?, code: String?, idToken: String?
  ) async throws -> (response: SignInResponse, phoneNumber: String) {
    let pending = try checkedCode(sessionInfo: sessionInfo, code: code, purpose: .signIn)
    let kind = PendingPhoneVerification.kind
    let phone = pending.phoneNumber
    let linking = try idToken.map { try verifiedUser(of: $0).uid }
    let response = try await finishFirstFactor(.phone) {
      try store.consumePending(kind, key: sessionInfo ?? "", gone: Self.codeUsed)
      if let owner = try store.account(phone: phone) {
        guard linking == nil || linking == owner.uid else { throw Self.phoneExists(phone) }
        guard !owner.disabled else {
          throw AuthError(firebase: .userDisabled)
        }
        return FirstFactor(uid: owner.uid, email: owner.email, isLink: linking != nil)
      }
      if let linking {
        let account = try store.updateAccount(uid: linking) { $0.phoneNumber = phone }
        return FirstFactor(uid: linking, email: account.email, isLink: true)
      }
      let uid = try Self.newUID()
      try store.save(
        EmbeddedDatabase.Account(
          uid: uid, phoneNumber: phone, createdAt: now(), lastLoginAt: now(), validSince: now()))
      return FirstFactor(uid: uid, email: nil, isNewUser: true)
    }.signed()
    return (response, phone)
  }
}
