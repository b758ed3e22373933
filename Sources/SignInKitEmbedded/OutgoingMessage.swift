/// A message the embedded backend sends a person, carrying a code: what a
/// ``MessageDelivery/handler(_:)`` delivers.
///
/// - Concurrency: `Sendable` value.
public enum OutgoingMessage: Sendable, Equatable {
  /// An email with an action link (a password reset, an address to verify, a sign-in link).
  case email(MailboxMessage)
  /// A text message with a six-digit code for a phone sign-in, enrolment or second factor.
  case text(PhoneVerificationCode)
}
