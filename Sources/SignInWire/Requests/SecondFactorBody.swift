/// Identity Toolkit v2 `accounts/mfaEnrollment:start`, `:finalize`, `:withdraw` and
/// `accounts/mfaSignIn:finalize`: one body, as the calls share their fields.
///
/// - Concurrency: `Sendable` value.
package struct SecondFactorBody: WireBody {
  package var idToken: String?
  package var mfaPendingCredential: String?
  package var mfaEnrollmentId: String?
  package var displayName: String?
  package var totpEnrollmentInfo: EmptyBody?
  package var totpVerificationInfo: TOTPVerificationInfo?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, mfaPendingCredential, mfaEnrollmentId, displayName, totpEnrollmentInfo, totpVerificationInfo
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + TOTPVerificationInfo.fieldNames
  }
}
