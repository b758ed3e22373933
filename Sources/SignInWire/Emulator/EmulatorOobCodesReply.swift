/// The emulator's outbox (`GET /emulator/v1/projects/PROJECT/oobCodes`): every code it would have
/// emailed, oldest first.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorOobCodesReply: WireBody {
  @Lenient package var oobCodes: [OobCodeReply]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case oobCodes
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + OobCodeReply.fieldNames
  }
}
