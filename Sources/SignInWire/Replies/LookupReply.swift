/// `accounts:lookup`, and the admin list (`nextPageToken`).
///
/// - Concurrency: `Sendable` value.
package struct LookupReply: WireBody, LenientValue {
  @Lenient package var kind: String?
  @Lenient package var users: [AccountRecord]?
  @Lenient package var nextPageToken: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, users, nextPageToken
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + AccountRecord.fieldNames
  }
}
