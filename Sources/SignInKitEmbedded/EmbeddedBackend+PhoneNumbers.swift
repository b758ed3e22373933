import Foundation
import SignInCrypto
import SignInKit

/// A code "sent" to a phone number by `accounts:sendVerificationCode`, stored under its
/// `sessionInfo` until it is used, spent or expired. Like the emulator, nothing is sent: the
/// code is listed by ``EmbeddedBackend/verificationCodes()``.
struct PendingPhoneVerification: Codable, Sendable, PendingStep {
  static let kind = "phone"
  var phoneNumber: String
  var code: String
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
    let phone = try Self.validatedPhoneNumber(phoneNumber ?? "")
    let digits = try Crypto.randomBytes(6).map { String($0 % 10) }.joined()
    let sessionInfo = Base64URL.encode(try Crypto.randomBytes(32))
    try addPending(
      PendingPhoneVerification(phoneNumber: phone, code: digits), kind: PendingPhoneVerification.kind,
      key: sessionInfo, until: now().addingTimeInterval(Self.phoneCodeWindow))
    return sessionInfo
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
    guard let sessionInfo, !sessionInfo.isEmpty else {
      throw Self.failure(.invalidCredential, "MISSING_SESSION_INFO", "Send the sessionInfo sendVerificationCode gave.")
    }
    guard let code, !code.isEmpty else {
      throw Self.failure(.invalidCredential, "MISSING_CODE", "Send the code the phone received.")
    }
    let kind = PendingPhoneVerification.kind
    guard var pending: PendingPhoneVerification = try store.pending(kind, key: sessionInfo, now: now()) else {
      throw Self.failure(
        .invalidCredential, "INVALID_SESSION_INFO",
        "The verification session is unknown, used or expired. Ask for a new code.")
    }
    guard pending.code == code else {
      pending.wrongCodes += 1
      if pending.wrongCodes >= Self.secondFactorAttempts {
        try store.deletePending(kind, key: sessionInfo)
      } else {
        try store.updatePending(kind, key: sessionInfo, record: pending)
      }
      throw Self.failure(.invalidVerificationCode, "INVALID_CODE", "The code is wrong. Check the text message.")
    }
    let phone = pending.phoneNumber
    let linking = try idToken.map { try verifiedUser(of: $0).uid }
    let response = try await finishFirstFactor(.phone) {
      try store.deletePending(kind, key: sessionInfo)
      if let owner = try store.account(phone: phone) {
        guard linking == nil || linking == owner.uid else { throw Self.phoneExists(phone) }
        guard !owner.disabled else {
          throw Self.failure(.userDisabled, "USER_DISABLED", "An administrator disabled this account.")
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
