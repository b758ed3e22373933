/// The reply of a ``SecondFactorRequest``.
///
/// - Concurrency: `Sendable` value.
public enum SecondFactorResponse: Sendable, Equatable {
  /// `mfaEnrollment:start` for TOTP: the secret to show.
  case secret(TOTPSecret)
  /// `mfaEnrollment:start` or `mfaSignIn:start` for SMS: the code was texted.
  case codeSent(PhoneCodeResponse)
  /// The other calls: new tokens for the user `uid` (the enrollment or withdrawal revoked the
  /// old ones; a finished sign-in starts its session with them).
  case tokens(IssuedTokens, uid: String)
}
