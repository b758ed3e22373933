import Foundation

/// An email the embedded backend "sent": where it went, what kind, and its action code.
///
/// - Concurrency: `Sendable` value.
public struct MailboxMessage: Sendable, Codable, Equatable, CustomStringConvertible {
  /// The recipient address.
  public var to: String
  /// `PASSWORD_RESET`, `VERIFY_EMAIL`, `VERIFY_AND_CHANGE_EMAIL` or `EMAIL_SIGNIN`.
  public var kind: String
  /// The action code to pass to `confirmPasswordReset`, `applyActionCode` or `checkActionCode`.
  public var code: String
  public var sentAt: Date
  /// The link the email carries, as Firebase's action links read
  /// (`http://localhost/__/auth/action?mode=…&oobCode=…&continueUrl=…`, or on the settings' `linkDomain`): what an
  /// app that handles the code opens, and passes to `Auth.signIn(email:link:)` for a sign-in.
  public var link: String?

  public init(to: String, kind: String, code: String, sentAt: Date, link: String? = nil) {
    self.to = to
    self.kind = kind
    self.code = code
    self.sentAt = sentAt
    self.link = link
  }

  public var description: String { "\(kind) to \(to) at \(sentAt)" }
}
