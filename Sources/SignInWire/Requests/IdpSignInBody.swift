/// `accounts:signInWithIdp`: the identity provider's credential as a form in `postBody`
/// (``IdpPostBody``); with `idToken`, links it to that account; with `pendingToken`, finishes a
/// sign-in a conflict interrupted.
///
/// - Concurrency: `Sendable` value.
package struct IdpSignInBody: WireBody, TenantNaming {
  package var requestUri: String?
  package var postBody: String?
  package var pendingToken: String?
  package var idToken: String?
  package var sessionId: String?
  package var returnSecureToken: Bool?
  package var returnIdpCredential: Bool?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case requestUri, postBody, pendingToken, idToken, sessionId, returnSecureToken, returnIdpCredential, tenantId
  }
}
