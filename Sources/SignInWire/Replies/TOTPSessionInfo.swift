/// The secret of a TOTP enrollment, its code's shape, and the session that finalizes it by
/// `finalizeEnrollmentTime` (RFC 3339).
///
/// - Concurrency: `Sendable` value.
package struct TOTPSessionInfo: WireBody, LenientValue {
  @Lenient package var sharedSecretKey: String?
  @Lenient package var verificationCodeLength: Double?
  @Lenient package var hashingAlgorithm: String?
  @Lenient package var periodSec: Double?
  @Lenient package var sessionInfo: String?
  @Lenient package var finalizeEnrollmentTime: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sharedSecretKey, verificationCodeLength, hashingAlgorithm, periodSec, sessionInfo, finalizeEnrollmentTime
  }
}
