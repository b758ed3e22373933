/// The emulator's text messages (`GET /emulator/v1/projects/PROJECT/verificationCodes`): every
/// code it would have texted, oldest first.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorVerificationCodesReply: WireBody {
  @Lenient package var verificationCodes: [Code]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case verificationCodes
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Code.fieldNames }

  /// One texted code: where it went and the session it answers.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Code: WireBody, LenientValue {
    @Lenient package var code: String?
    @Lenient package var phoneNumber: String?
    @Lenient package var sessionInfo: String?

    package init(code: String, phoneNumber: String, sessionInfo: String) {
      self.code = code
      self.phoneNumber = phoneNumber
      self.sessionInfo = sessionInfo
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case code, phoneNumber, sessionInfo
    }
  }
}
