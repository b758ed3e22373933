import Foundation

/// A code texted to a phone number, waiting for the person to type it (FirebaseAuth's
/// verification ID, with what it is for and when it stops working).
///
/// `Auth` keeps the last one in its store (``Auth/pendingPhoneVerification()``), so it
/// survives the app being ended while the person waits for the text; it is `Codable` for apps
/// that keep it themselves.
///
/// - Concurrency: `Sendable` value; its description never contains the verification ID.
public struct PhoneVerification: Sendable, Codable, Equatable, CustomStringConvertible {
  /// What the code will do.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Purpose: Sendable, Codable, Equatable {
    /// Prove the number: sign in with it, link it, or make it the user's new number.
    case phoneNumber
    /// Enroll the number as a second factor of the signed-in user.
    case secondFactorEnrollment
    /// Finish a sign-in that waits for the SMS factor `enrollmentID`.
    case secondFactorSignIn(enrollmentID: String)
  }

  /// The backend's name for the texted code (`sessionInfo`), sent back with it.
  public var verificationID: String
  /// The number texted: as typed, or masked for a second-factor sign-in.
  public var phoneNumber: String
  public var purpose: Purpose
  public var sentAt: Date
  /// After this the code no longer works; ask for a new one.
  public var expiresAt: Date

  public init(verificationID: String, phoneNumber: String, purpose: Purpose, sentAt: Date, expiresAt: Date) {
    self.verificationID = verificationID
    self.phoneNumber = phoneNumber
    self.purpose = purpose
    self.sentAt = sentAt
    self.expiresAt = expiresAt
  }

  /// Whether the code no longer works at `date`.
  public func isExpired(at date: Date) -> Bool { date >= expiresAt }

  public var description: String {
    "PhoneVerification(\(phoneNumber), \(purpose), expiresAt: \(expiresAt), id redacted)"
  }

  /// Whether `number` is a phone number in E.164 form: `+`, a country code that does not start
  /// with 0, and 2 to 15 digits in all.
  public static func isE164(_ number: String) -> Bool {
    guard number.first == "+" else { return false }
    let digits = number.dropFirst()
    return (2...15).contains(digits.count) && digits.allSatisfy { ("0"..."9").contains($0) } && digits.first != "0"
  }
}
