/// `accounts:sendOobCode`; the admin's form also returns the code and its link.
///
/// - Concurrency: `Sendable` value.
package struct OobCodeReply: WireBody, LenientValue {
  @Lenient package var kind: String?
  @Lenient package var email: String?
  @Lenient package var oobCode: String?
  @Lenient package var oobLink: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, email, oobCode, oobLink
  }
}
