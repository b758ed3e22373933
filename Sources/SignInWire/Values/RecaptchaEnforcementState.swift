/// How a project or tenant uses reCAPTCHA Enterprise for one provider (`enforcementState` of
/// `v2/recaptchaConfig`, `emailPasswordEnforcementState` and `phoneEnforcementState` of the
/// admin config): `OFF` checks nothing, `AUDIT` assesses a token when one comes and lets every
/// call through, `ENFORCE` refuses a call without a valid token.
///
/// - Concurrency: `Sendable` value.
package enum RecaptchaEnforcementState: String, WireEnum {
  case off = "OFF"
  case audit = "AUDIT"
  case enforce = "ENFORCE"

  package var protoNumber: Int {
    switch self {
    case .off: 1
    case .audit: 2
    case .enforce: 3
    }
  }
}

/// The providers reCAPTCHA Enterprise protects: email and password (sign-up, sign-in, and the
/// emails that reset a password or sign in by link), and phone (every call that texts a code).
///
/// - Concurrency: `Sendable` value.
package enum RecaptchaProvider: String, WireEnum {
  case emailPassword = "EMAIL_PASSWORD_PROVIDER"
  case phone = "PHONE_PROVIDER"

  package var protoNumber: Int {
    switch self {
    case .emailPassword: 1
    case .phone: 2
    }
  }
}
