/// `accounts:signInWithCustomToken`.
///
/// - Concurrency: `Sendable` value.
package struct CustomTokenSignInBody: WireBody, TenantNaming {
  package var token: String?
  package var returnSecureToken: Bool?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case token, returnSecureToken, tenantId
  }
}
