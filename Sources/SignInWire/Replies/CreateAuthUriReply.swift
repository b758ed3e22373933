/// `accounts:createAuthUri`'s reply: whether an account has the email and how it signs in
/// (`password`, `emailLink`, an IdP's id). With email enumeration protection on, only `kind` and
/// `sessionId`.
///
/// - Concurrency: `Sendable` value.
package struct CreateAuthUriReply: WireBody {
  @Lenient package var kind: String?
  @Lenient package var registered: Bool?
  @Lenient package var allProviders: [String]?
  @Lenient package var signinMethods: [SignInMethod]?
  @Lenient package var sessionId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, registered, allProviders, signinMethods, sessionId
  }
}
