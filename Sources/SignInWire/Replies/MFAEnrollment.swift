/// One second factor (`mfaInfo`): `totpInfo` or `phoneInfo` says its kind; `enrolledAt` is RFC
/// 3339.
///
/// - Concurrency: `Sendable` value.
package struct MFAEnrollment: WireBody, LenientValue {
  @Lenient package var mfaEnrollmentId: String?
  @Lenient package var displayName: String?
  @Lenient package var enrolledAt: String?
  @Lenient package var totpInfo: NoBody?
  @Lenient package var phoneInfo: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case mfaEnrollmentId, displayName, enrolledAt, totpInfo, phoneInfo
  }
}
