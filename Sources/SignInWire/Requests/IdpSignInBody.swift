/// `accounts:signInWithIdp`: the identity provider's credential as a form in `postBody`; with
/// `idToken`, links it to that account.
///
/// - Concurrency: `Sendable` value.
package struct IdpSignInBody: WireBody {
  package var requestUri: String?
  package var postBody: String?
  package var idToken: String?
  package var returnSecureToken: Bool?
  package var returnIdpCredential: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case requestUri, postBody, idToken, returnSecureToken, returnIdpCredential
  }
}
