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
  /// The whole number of an SMS factor, as the Firebase Auth emulator keeps it in its exports
  /// (`phoneInfo` may be masked there).
  @Lenient package var unobfuscatedPhoneInfo: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case mfaEnrollmentId, displayName, enrolledAt, totpInfo, phoneInfo, unobfuscatedPhoneInfo
  }

  package static var unlistedFields: [String: String] {
    [
      "unobfuscatedPhoneInfo":
        "the Firebase Auth emulator's own field in its exports (accounts.json): the factor's whole number"
    ]
  }
}
