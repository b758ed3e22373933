import Foundation

/// A passkey enrolled on an account (FirebaseAuth's `PasskeyInfo`): what a settings screen
/// lists, and what ``Auth/removePasskey(credentialID:)`` takes.
///
/// - Concurrency: `Sendable` value.
public struct PasskeyInfo: Sendable, Hashable, Codable {
  /// The name the user gave it at enrolment ("MacBook", "iPhone").
  public var name: String
  /// The credential id, base64url: the backend's key for it.
  public var credentialID: String
  public var enrolledAt: Date?

  public init(name: String, credentialID: String, enrolledAt: Date? = nil) {
    self.name = name
    self.credentialID = credentialID
    self.enrolledAt = enrolledAt
  }
}
