/// The emulator's outbox (`GET /emulator/v1/projects/PROJECT/oobCodes`): every code it would have
/// emailed, oldest first.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorOobCodesReply: WireBody {
  @Lenient package var oobCodes: [Code]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case oobCodes
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Code.fieldNames }

  /// One emailed code: to whom, what for, and the link that uses it.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Code: WireBody, LenientValue {
    @Lenient package var email: String?
    @Lenient package var requestType: OobRequestType?
    @Lenient package var oobCode: String?
    @Lenient package var oobLink: String?

    package init() {}

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case email, requestType, oobCode, oobLink
    }
  }
}
