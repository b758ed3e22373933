import Foundation

/// An email the embedded backend "sent": where it went, what kind, and its action code.
///
/// - Concurrency: `Sendable` value.
public struct MailboxMessage: Sendable, Codable, Equatable, CustomStringConvertible {
  /// The recipient address.
  public var to: String
  /// `PASSWORD_RESET` or `VERIFY_EMAIL`.
  public var kind: String
  /// The action code to pass to `confirmPasswordReset` or `applyActionCode`.
  public var code: String
  public var sentAt: Date

  public var description: String { "\(kind) to \(to) at \(sentAt)" }
}
