import Foundation

/// A second factor enrolled on an account (FirebaseAuth's `MultiFactorInfo`): what a screen
/// lists to choose from when a sign-in asks for one, or to unenrol.
///
/// - Concurrency: `Sendable` value.
public struct MultiFactorInfo: Sendable, Hashable, Codable {
  /// The kind of factor.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Kind: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A time-based one-time password from an authenticator app (`totp`).
    public static let totp = Kind(rawValue: "totp")
    /// A code sent by SMS (`phone`).
    public static let phone = Kind(rawValue: "phone")
  }

  /// The backend's id for this enrollment (`mfaEnrollmentId`).
  public var enrollmentID: String
  public var kind: Kind
  /// The name the user gave it ("Work phone").
  public var displayName: String?
  public var enrolledAt: Date?
  /// An SMS factor's number, masked as Firebase shows it to a sign-in that waits for it
  /// (`+*******4567`): enough to tell two phones apart, not to text one.
  public var phoneNumber: String?

  public init(
    enrollmentID: String, kind: Kind, displayName: String? = nil, enrolledAt: Date? = nil, phoneNumber: String? = nil
  ) {
    self.enrollmentID = enrollmentID
    self.kind = kind
    self.displayName = displayName
    self.enrolledAt = enrolledAt
    self.phoneNumber = phoneNumber
  }

  /// `number` with all but its last four digits hidden: `+*******4567`. A number masked already
  /// comes back as it is.
  public static func masked(_ number: String) -> String {
    var kept = 0
    let reversed = number.reversed().map { character -> Character in
      guard character.isASCII, character.isNumber else { return character }
      kept += 1
      return kept > 4 ? "*" : character
    }
    return String(reversed.reversed())
  }
}
