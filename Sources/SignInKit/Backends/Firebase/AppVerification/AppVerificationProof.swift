/// What proves to Firebase that a request to text a code comes from the genuine app: the
/// receipt and secret of a silent push (iOS), or a reCAPTCHA token.
///
/// - Concurrency: `Sendable` value; its description never contains the secret or token.
public enum AppVerificationProof: Sendable, Equatable, CustomStringConvertible {
  /// The receipt `accounts:verifyIosClient` answered and the secret its silent push carried
  /// (`iosReceipt`, `iosSecret`).
  case silentPush(receipt: String, secret: String)
  /// The token the reCAPTCHA page of the project's hosted handler gave (`recaptchaToken`).
  case recaptcha(token: String)

  public var description: String {
    switch self {
    case .silentPush: "AppVerificationProof(silent push, redacted)"
    case .recaptcha: "AppVerificationProof(reCAPTCHA, redacted)"
    }
  }
}
