/// v2 `accounts/mfaEnrollment:start` for a TOTP factor: the secret to show.
///
/// - Concurrency: `Sendable` value.
package struct TOTPEnrollmentReply: WireBody, LenientValue {
  @Lenient package var totpSessionInfo: TOTPSessionInfo?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case totpSessionInfo
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + TOTPSessionInfo.fieldNames
  }
}
