/// Identity Toolkit v2 `accounts/mfaEnrollment:start`: a TOTP secret (`totpEnrollmentInfo: {}`)
/// or a code texted to a phone (`phoneEnrollmentInfo`) for the account `idToken` names.
///
/// - Concurrency: `Sendable` value.
package struct StartMfaEnrollmentBody: WireBody, TenantNaming {
  package var idToken: String?
  package var phoneEnrollmentInfo: StartMfaPhoneInfo?
  package var totpEnrollmentInfo: NoBody?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, phoneEnrollmentInfo, totpEnrollmentInfo, tenantId
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + StartMfaPhoneInfo.fieldNames }
}

/// Identity Toolkit v2 `accounts/mfaEnrollment:finalize`: the code that proves the factor.
///
/// - Concurrency: `Sendable` value.
package struct FinalizeMfaEnrollmentBody: WireBody, TenantNaming {
  package var idToken: String?
  package var displayName: String?
  package var phoneVerificationInfo: PhoneVerificationInfo?
  package var totpVerificationInfo: TOTPVerificationInfo?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, displayName, phoneVerificationInfo, totpVerificationInfo, tenantId
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PhoneVerificationInfo.fieldNames + TOTPVerificationInfo.fieldNames
  }
}

/// Identity Toolkit v2 `accounts/mfaEnrollment:withdraw`.
///
/// - Concurrency: `Sendable` value.
package struct WithdrawMfaBody: WireBody, TenantNaming {
  package var idToken: String?
  package var mfaEnrollmentId: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, mfaEnrollmentId, tenantId
  }
}

/// Identity Toolkit v2 `accounts/mfaSignIn:start`: texts a code to the enrolled phone of a sign-in
/// that waits for its second factor.
///
/// - Concurrency: `Sendable` value.
package struct StartMfaSignInBody: WireBody, TenantNaming {
  package var mfaPendingCredential: String?
  package var mfaEnrollmentId: String?
  package var phoneSignInInfo: StartMfaPhoneInfo?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case mfaPendingCredential, mfaEnrollmentId, phoneSignInInfo, tenantId
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + StartMfaPhoneInfo.fieldNames }
}

/// Identity Toolkit v2 `accounts/mfaSignIn:finalize`: the second factor's code finishes the
/// sign-in.
///
/// - Concurrency: `Sendable` value.
package struct FinalizeMfaSignInBody: WireBody, TenantNaming {
  package var mfaPendingCredential: String?
  package var mfaEnrollmentId: String?
  package var phoneVerificationInfo: PhoneVerificationInfo?
  package var totpVerificationInfo: TOTPSignInInfo?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case mfaPendingCredential, mfaEnrollmentId, phoneVerificationInfo, totpVerificationInfo, tenantId
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + PhoneVerificationInfo.fieldNames + TOTPSignInInfo.fieldNames
  }
}

/// The phone a second-factor code is texted to, and how the app proves itself
/// (`phoneEnrollmentInfo`, `phoneSignInInfo`).
///
/// - Concurrency: `Sendable` value.
package struct StartMfaPhoneInfo: WireBody {
  package var phoneNumber: String?
  package var iosReceipt: String?
  package var iosSecret: String?
  package var recaptchaToken: String?
  package var captchaResponse: String?
  package var clientType: String?
  package var recaptchaVersion: String?

  package init(phoneNumber: String? = nil) { self.phoneNumber = phoneNumber }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case phoneNumber, iosReceipt, iosSecret, recaptchaToken, captchaResponse, clientType, recaptchaVersion
  }
}

extension StartMfaPhoneInfo: RecaptchaCarrying {}

/// A texted code and the session it was sent for (`phoneVerificationInfo`).
///
/// - Concurrency: `Sendable` value.
package struct PhoneVerificationInfo: WireBody {
  package var sessionInfo: String?
  package var code: String?
  package var phoneNumber: String?

  package init(sessionInfo: String? = nil, code: String? = nil) {
    self.sessionInfo = sessionInfo
    self.code = code
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sessionInfo, code, phoneNumber
  }
}
