/// `accounts:sendVerificationCode`: texts a code to `phoneNumber`, proving the app with an APNs
/// receipt (`iosReceipt`, `iosSecret`) or a reCAPTCHA token; the emulator and Firebase's test
/// numbers need neither.
///
/// - Concurrency: `Sendable` value.
package struct SendVerificationCodeBody: WireBody, TenantNaming {
  package var phoneNumber: String?
  package var iosReceipt: String?
  package var iosSecret: String?
  package var recaptchaToken: String?
  package var captchaResponse: String?
  package var clientType: String?
  package var recaptchaVersion: String?
  package var playIntegrityToken: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case phoneNumber, iosReceipt, iosSecret, recaptchaToken, captchaResponse, clientType, recaptchaVersion,
      playIntegrityToken, tenantId
  }
}

extension SendVerificationCodeBody: RecaptchaCarrying {}
