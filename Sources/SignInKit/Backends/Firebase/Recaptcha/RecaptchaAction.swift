/// What a reCAPTCHA Enterprise token is for: the action its assessment names, which Firebase
/// checks against the call the token comes with.
///
/// - Concurrency: `Sendable` value.
public struct RecaptchaAction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }

  /// Signing in with an email and password.
  public static let signInWithPassword = RecaptchaAction(rawValue: "signInWithPassword")
  /// Making an account with an email and password (or giving a guest one).
  public static let signUpPassword = RecaptchaAction(rawValue: "signUpPassword")
  /// Sending a password-reset or sign-in-link email.
  public static let getOobCode = RecaptchaAction(rawValue: "getOobCode")
  /// Texting a sign-in code.
  public static let sendVerificationCode = RecaptchaAction(rawValue: "sendVerificationCode")
  /// Texting a code to enrol a phone as a second factor.
  public static let mfaSmsEnrollment = RecaptchaAction(rawValue: "mfaSmsEnrollment")
  /// Texting a code for a phone second factor at sign-in.
  public static let mfaSmsSignIn = RecaptchaAction(rawValue: "mfaSmsSignIn")
}
