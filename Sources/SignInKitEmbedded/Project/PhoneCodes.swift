import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// Six-digit codes texted to a phone number: sent for a sign-in, a second factor's enrollment
/// or its sign-in, kept as an HMAC under the `sessionInfo` that names them, and checked once
/// within ``EmbeddedBackend/phoneCodeWindow`` with a throttle per number.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.phone`);
///   its async calls run on their caller's actor.
package struct PhoneCodes {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer
  let steps: SignInSteps
  let mail: ActionCodeMail
  let throttle: LoginThrottle
  let administration: AccountAdministration

  /// `accounts:sendVerificationCode`: makes a six-digit code for `phoneNumber` and returns the
  /// `sessionInfo` that names it. reCAPTCHA and app checks are not asked for, as in the emulator.
  ///
  /// - Throws: `INVALID_PHONE_NUMBER` (a missing number too, as Firebase answers it),
  ///   `TOO_MANY_ATTEMPTS_TRY_LATER` when too many codes wait.
  package nonisolated(nonsending) func sendVerificationCode(phoneNumber: String?) async throws -> String {
    try await textCode(to: try AccountRules.validatedPhoneNumber(phoneNumber ?? ""), for: .signIn)
  }

  /// Makes a six-digit code for `phone` with its purpose, sends it (``MessageDelivery``), and
  /// returns its `sessionInfo`.
  private nonisolated(nonsending) func textCode(to phone: String, for purpose: PendingPhoneVerification.Purpose)
    async throws -> String
  {
    // A number's live codes are never pushed out by newer sends (someone who knows the number
    // could otherwise void the code its owner is typing): past the limit, sends wait.
    let perNumber = configuration.limits.pendingPerAccount
    guard try store.pendingSteps.count(PendingPhoneVerification.kind, uid: phone, now: now()) < perNumber else {
      throw AuthError(
        firebase: .tooManyAttemptsTryLater,
        message: "\(perNumber) codes sent to this number are still waiting; enter one of them, or ask again once they "
          + "expire (\(Int(EmbeddedBackend.phoneCodeWindow / 60)) minutes after they were sent).")
    }
    let digits = try Crypto.randomDigits(6)
    let sessionInfo = Base64URL.encode(try Crypto.randomBytes(32))
    let message = PhoneVerificationCode(phoneNumber: phone, sessionInfo: sessionInfo, code: digits)
    let kind = PendingPhoneVerification.kind
    try steps.addPending(
      PendingPhoneVerification(
        phoneNumber: phone, codeDigest: PendingPhoneVerification.digest(of: digits, sessionInfo: sessionInfo),
        purpose: purpose),
      kind: kind, key: sessionInfo, until: now().addingTimeInterval(EmbeddedBackend.phoneCodeWindow),
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
      if pending.wrongCodes >= EmbeddedBackend.secondFactorAttempts {
        try store.pendingSteps.delete(kind, key: sessionInfo)
      } else {
        try store.pendingSteps.update(kind, key: sessionInfo, record: pending)
      }
      throw AuthError(firebase: .invalidCode, message: "The code is wrong. Check the text message.")
    }
    throttle.forgetLoginFailures(key)
    return pending
  }

  /// `mfaEnrollment:start` with `phoneEnrollmentInfo`: texts a code to `phoneNumber` for the
  /// user of `idToken`, whose email must be verified, and returns its `sessionInfo`.
  package nonisolated(nonsending) func startPhoneEnrollment(idToken: String, phoneNumber: String?) async throws
    -> String
  {
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
  package nonisolated(nonsending) func startPhoneSecondFactor(pendingCredential: String, enrollmentID: String)
    async throws -> String
  {
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
      try store.pendingSteps.consume(PendingSignIn.kind, key: pendingCredential, gone: EmbeddedBackend.signInSpent)
      try store.updateAccount(uid: signIn.uid) { $0.lastLoginAt = now() }
      return (try tokens.issueTokens(for: signIn.uid, provider: signIn.provider), signIn.uid)
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
  package nonisolated(nonsending) func signIn(
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
