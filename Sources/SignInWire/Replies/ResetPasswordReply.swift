/// `accounts:resetPassword`: whose code it was and what it was for.
///
/// - Concurrency: `Sendable` value.
package struct ResetPasswordReply: WireBody, LenientValue {
  @Lenient package var kind: String?
  @Lenient package var email: String?
  @Lenient package var requestType: OobRequestType?
  @Lenient package var newEmail: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, email, requestType, newEmail
  }
}
