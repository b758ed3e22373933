import SignInKit
import SignInWire

/// How strictly a project checks reCAPTCHA Enterprise for one provider, as the Firebase
/// console's reCAPTCHA settings (and Identity Platform's `recaptchaConfig`) set it.
///
/// - Concurrency: `Sendable` value.
public enum RecaptchaEnforcement: String, Sendable, CaseIterable {
  /// Nothing is checked.
  case off
  /// A token is assessed when one comes; every call goes through.
  case audit
  /// A call without a valid token is refused (`MISSING_RECAPTCHA_TOKEN`,
  /// `INVALID_RECAPTCHA_TOKEN`) before it does anything.
  case enforce

  var wire: RecaptchaEnforcementState {
    switch self {
    case .off: .off
    case .audit: .audit
    case .enforce: .enforce
    }
  }
}

extension EmbeddedBackend {
  /// Sets how the project checks reCAPTCHA Enterprise for email and password (sign-up, sign-in,
  /// password-reset and sign-in-link emails) and for phone (every call that texts a code), as
  /// `PATCH v2/projects/P/config` with `recaptchaConfig` does against `signin serve`. The valid
  /// tokens are ``TestRecaptchaTokenProvider``'s. Every process on the folder follows the change
  /// on its next call.
  ///
  /// - Throws: `AuthError` with code `storage` when the settings cannot be written.
  public func enforceRecaptcha(emailPassword: RecaptchaEnforcement, phone: RecaptchaEnforcement) async throws {
    _ = try await ProjectSettingsEndpoints.change(in: self) { config in
      var config = config
      var recaptcha = config.recaptchaConfig ?? RecaptchaAdminConfig()
      recaptcha.emailPasswordEnforcementState = emailPassword.wire
      recaptcha.phoneEnforcementState = phone.wire
      config.recaptchaConfig = recaptcha
      return config
    }
  }
}
