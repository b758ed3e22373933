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

  // MARK: - SMS second factors

  // MARK: - AuthBackend

  /// The text messages in the outbox whose codes can still be used, oldest first; none when
  /// ``Configuration-swift.struct/delivery`` hands them to a handler.
  public func verificationCodes() -> [PhoneVerificationCode] {
    // A database that cannot be read shows none (the next call that needs it says why).
    (try? store.pendingSteps.texts(liveAt: now())) ?? []
  }

}
