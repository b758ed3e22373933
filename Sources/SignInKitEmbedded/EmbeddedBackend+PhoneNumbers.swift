import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// A code texted to a phone number by `accounts:sendVerificationCode`, pending under its
/// `sessionInfo` until it is used, spent or expired. Neither is kept: the step's row is found by
/// the `sessionInfo`'s digest, and the code is checked against an HMAC keyed with the
/// `sessionInfo`, so the database alone cannot finish it. The message itself goes where
/// ``MessageDelivery`` says.
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
  /// HMAC-SHA-256 (base64url) of the code, keyed with the `sessionInfo`: six digits have too few
  /// values for a plain hash to hide them.
  var codeDigest: String
  var purpose: Purpose? = .signIn
  /// Wrong codes tried with it; at ``EmbeddedBackend/secondFactorAttempts`` it is spent.
  var wrongCodes = 0
  /// Pending steps are counted per owner: here, per phone number.
  var uid: String { phoneNumber }

  static func digest(of code: String, sessionInfo: String) -> String {
    Base64URL.encode(Crypto.hmacSHA256(key: Array(sessionInfo.utf8), data: Array(code.utf8)))
  }

  /// Whether `code` is the one texted with `sessionInfo`, in time that does not depend on
  /// where they differ.
  func isCode(_ code: String, sessionInfo: String) -> Bool {
    Crypto.constantTimeEqual(Array(Self.digest(of: code, sessionInfo: sessionInfo).utf8), Array(codeDigest.utf8))
  }
}

/// A verification code waiting for its phone number's owner, as
/// `/emulator/v1/projects/P/verificationCodes` lists it.
///
/// - Concurrency: `Sendable` value.
public struct PhoneVerificationCode: Sendable, Codable, Equatable, CustomStringConvertible {
  public var phoneNumber: String
  public var sessionInfo: String
  public var code: String

  public init(phoneNumber: String, sessionInfo: String, code: String) {
    self.phoneNumber = phoneNumber
    self.sessionInfo = sessionInfo
    self.code = code
  }

  /// Where the code went; never the code or its session.
  public var description: String { "code texted to \(phoneNumber)" }
}

extension EmbeddedBackend {
  /// How long a code sent to a phone number can be used.
  static let phoneCodeWindow: TimeInterval = 10 * 60

  /// `accounts:sendVerificationCode`: makes a six-digit code for `phoneNumber` and returns the
  /// `sessionInfo` that names it. reCAPTCHA and app checks are not asked for, as in the emulator.
  ///
  /// - Throws: `INVALID_PHONE_NUMBER` (a missing number too, as Firebase answers it),
  ///   `TOO_MANY_ATTEMPTS_TRY_LATER` when too many codes wait.
  package func sendVerificationCode(phoneNumber: String?) async throws -> String {
    try await textCode(to: try AccountRules.validatedPhoneNumber(phoneNumber ?? ""), for: .signIn)
  }

  /// Makes a six-digit code for `phone` with its purpose, sends it (``MessageDelivery``), and
  /// returns its `sessionInfo`.
  private func textCode(to phone: String, for purpose: PendingPhoneVerification.Purpose) async throws -> String {
    // A number's live codes are never pushed out by newer sends (someone who knows the number
    // could otherwise void the code its owner is typing): past the limit, sends wait.
    let perNumber = configuration.limits.pendingPerAccount
    guard try store.pendingSteps.count(PendingPhoneVerification.kind, uid: phone, now: now()) < perNumber else {
      throw AuthError(
        firebase: .tooManyAttemptsTryLater,
        message: "\(perNumber) codes sent to this number are still waiting; enter one of them, or ask again once they "
          + "expire (\(Int(Self.phoneCodeWindow / 60)) minutes after they were sent).")
    }
    let digits = try Crypto.randomDigits(6)
    let sessionInfo = Base64URL.encode(try Crypto.randomBytes(32))
    let message = PhoneVerificationCode(phoneNumber: phone, sessionInfo: sessionInfo, code: digits)
    let kind = PendingPhoneVerification.kind
    try steps.addPending(
      PendingPhoneVerification(
        phoneNumber: phone, codeDigest: PendingPhoneVerification.digest(of: digits, sessionInfo: sessionInfo),
        purpose: purpose),
      kind: kind, key: sessionInfo, until: now().addingTimeInterval(Self.phoneCodeWindow),
      text: mail.keepsOutbox ? message : nil)
    try await mail.deliver(.text(message)) { try store.pendingSteps.delete(kind, key: sessionInfo) }
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
    let found: PendingPhoneVerification? = try store.pendingSteps.step(kind, key: sessionInfo, now: now())
    guard var pending = found, (pending.purpose ?? .signIn) == purpose else { throw Self.codeUsed }
    // Wrong codes count toward the number's throttle across sessions, as wrong passwords count
    // toward an email's: a new session per five guesses no longer buys more guesses.
    let key = "phone:\(pending.phoneNumber)"
    try throttle.checkThrottle(for: key, what: "this phone number", remedy: "with a new code")
    guard pending.isCode(code, sessionInfo: sessionInfo) else {
      try throttle.noteLoginFailure(key)
      pending.wrongCodes += 1
      if pending.wrongCodes >= Self.secondFactorAttempts {
        try store.pendingSteps.delete(kind, key: sessionInfo)
      } else {
        try store.pendingSteps.update(kind, key: sessionInfo, record: pending)
      }
      throw AuthError(firebase: .invalidCode, message: "The code is wrong. Check the text message.")
    }
    throttle.forgetLoginFailures(key)
    return pending
  }

  // MARK: - SMS second factors

  /// `mfaEnrollment:start` with `phoneEnrollmentInfo`: texts a code to `phoneNumber` for the
  /// user of `idToken`, whose email must be verified, and returns its `sessionInfo`.
  package func startPhoneEnrollment(idToken: String, phoneNumber: String?) async throws -> String {
    let (uid, _) = try tokens.verifiedRecentUser(of: idToken)
    guard try store.account(uid: uid)?.emailVerified == true else {
      throw AuthError(firebase: .unverifiedEmail)
    }
    return try await textCode(to: try AccountRules.validatedPhoneNumber(phoneNumber ?? ""), for: .enrollment(uid: uid))
  }

  /// `mfaEnrollment:finalize` with `phoneVerificationInfo`: the code proves the number, which
  /// becomes a second factor; the user's other sessions end and new tokens come back.
  package func finalizePhoneEnrollment(
    idToken: String, sessionInfo: String?, code: String?, displayName: String?
  ) throws -> IssuedTokens {
    try FieldLimits.check(displayName, .secondFactorName)
    let (uid, provider) = try tokens.verifiedUser(of: idToken)
    let pending = try checkedCode(sessionInfo: sessionInfo, code: code, purpose: .enrollment(uid: uid))
    let factor = EmbeddedDatabase.SecondFactor(
      enrollmentID: Base64URL.encode(try Crypto.randomBytes(12)), displayName: displayName, secret: "",
      phoneNumber: pending.phoneNumber, enrolledAt: now())
    return try store.transaction {
      try store.pendingSteps.consume(PendingPhoneVerification.kind, key: sessionInfo ?? "", gone: Self.codeUsed)
      try store.updateAccount(uid: uid) { $0.secondFactors = ($0.secondFactors ?? []) + [factor] }
      try administration.revokeSessions(of: uid, at: now())
      return try tokens.issueTokens(for: uid, provider: provider)
    }
  }

  /// `mfaSignIn:start` with `phoneSignInInfo`: texts a code to the SMS factor `enrollmentID` of
  /// the sign-in waiting under `pendingCredential`, and returns its `sessionInfo`.
  package func startPhoneSecondFactor(pendingCredential: String, enrollmentID: String) async throws -> String {
    let found: PendingSignIn? = try store.pendingSteps.step(PendingSignIn.kind, key: pendingCredential, now: now())
    guard let found, let account = try store.account(uid: found.uid) else {
      throw AuthError(
        firebase: .invalidMfaPendingCredential, message: "The sign-in waited too long for its second factor.")
    }
    guard
      let phone = account.secondFactors?.first(where: { $0.enrollmentID == enrollmentID })?.phoneNumber
    else {
      throw AuthError(firebase: .mfaEnrollmentNotFound, message: "That SMS second factor is not enrolled here.")
    }
    return try await textCode(
      to: phone, for: .secondFactor(pendingCredential: pendingCredential, enrollmentID: enrollmentID))
  }

  /// `mfaSignIn:finalize` with `phoneVerificationInfo`: the texted code finishes the sign-in.
  package func finalizePhoneSecondFactor(
    pendingCredential: String, enrollmentID: String?, sessionInfo: String?, code: String?
  ) throws -> (tokens: IssuedTokens, uid: String) {
    let kind = PendingPhoneVerification.kind
    let found: PendingPhoneVerification? = try sessionInfo.flatMap {
      try store.pendingSteps.step(kind, key: $0, now: now())
    }
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
    let signIn: PendingSignIn? = try store.pendingSteps.step(PendingSignIn.kind, key: pendingCredential, now: now())
    guard let signIn else {
      throw AuthError(
        firebase: .invalidMfaPendingCredential, message: "The sign-in waited too long for its second factor.")
    }
    return try store.transaction {
      try store.pendingSteps.consume(kind, key: sessionInfo ?? "", gone: Self.codeUsed)
      try store.pendingSteps.consume(PendingSignIn.kind, key: pendingCredential, gone: Self.signInSpent)
      try store.updateAccount(uid: signIn.uid) { $0.lastLoginAt = now() }
      return (try tokens.issueTokens(for: signIn.uid, provider: signIn.provider), signIn.uid)
    }
  }

  // MARK: - AuthBackend

  public func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse {
    PhoneCodeResponse(
      verificationID: try await sendVerificationCode(phoneNumber: request.phoneNumber),
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

  /// The text messages in the outbox whose codes can still be used, oldest first; none when
  /// ``Configuration-swift.struct/delivery`` hands them to a handler.
  public func verificationCodes() -> [PhoneVerificationCode] {
    // A database that cannot be read shows none (the next call that needs it says why).
    (try? store.pendingSteps.texts(liveAt: now())) ?? []
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
    let linking = try idToken.map { try tokens.verifiedUser(of: $0).uid }
    let response = try await steps.finishFirstFactor(.phone) {
      try store.pendingSteps.consume(kind, key: sessionInfo ?? "", gone: Self.codeUsed)
      if let owner = try store.account(phone: phone) {
        guard linking == nil || linking == owner.uid else { throw AccountRules.phoneExists(phone) }
        guard !owner.disabled else {
          throw AuthError(firebase: .userDisabled)
        }
        return FirstFactor(uid: owner.uid, email: owner.email, isLink: linking != nil)
      }
      if let linking {
        let account = try store.updateAccount(uid: linking) { $0.phoneNumber = phone }
        return FirstFactor(uid: linking, email: account.email, isLink: true)
      }
      let uid = try EmbeddedDatabase.Account.newUID()
      try store.save(
        EmbeddedDatabase.Account(
          uid: uid, phoneNumber: phone, createdAt: now(), lastLoginAt: now(), validSince: now()))
      return FirstFactor(uid: uid, email: nil, isNewUser: true)
    }.signed()
    return (response, phone)
  }
}
