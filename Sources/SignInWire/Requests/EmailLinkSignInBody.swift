/// `accounts:signInWithEmailLink`: the email and the link's `oobCode`; with `idToken`, links the
/// email to that account.
///
/// - Concurrency: `Sendable` value.
package struct EmailLinkSignInBody: WireBody, TenantNaming {
  package var email: String?
  package var oobCode: String?
  package var idToken: String?
  package var returnSecureToken: Bool?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case email, oobCode, idToken, returnSecureToken, tenantId
  }

  package static var unlistedFields: [String: String] {
    ["returnSecureToken": Self.returnSecureTokenReason]
  }
}
