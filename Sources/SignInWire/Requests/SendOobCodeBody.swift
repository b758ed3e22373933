/// `accounts:sendOobCode`: which email to send (`requestType`), to whom, and where its link leads;
/// an administrator's `returnOobLink` answers with the code and link instead of sending them.
///
/// - Concurrency: `Sendable` value.
package struct SendOobCodeBody: WireBody, TenantNaming {
  package var requestType: OobRequestType?
  package var email: String?
  package var idToken: String?
  package var newEmail: String?
  package var continueUrl: String?
  package var canHandleCodeInApp: Bool?
  package var iOSBundleId: String?
  package var androidPackageName: String?
  package var linkDomain: String?
  package var returnOobLink: Bool?
  package var tenantId: String?
  package var targetProjectId: String?
  /// The reCAPTCHA token: this call spells it `captchaResp`, where the others write
  /// `captchaResponse`.
  package var captchaResp: String?
  package var clientType: String?
  package var recaptchaVersion: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case requestType, email, idToken, newEmail, continueUrl, canHandleCodeInApp, iOSBundleId, androidPackageName,
      linkDomain, returnOobLink, tenantId, targetProjectId, captchaResp, clientType, recaptchaVersion
  }
}

extension SendOobCodeBody: RecaptchaCarrying {
  package var captchaResponse: String? {
    get { captchaResp }
    set { captchaResp = newValue }
  }
}
