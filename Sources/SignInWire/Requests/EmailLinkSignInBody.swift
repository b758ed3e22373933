/// `accounts:signInWithEmailLink`: the email and the link's `oobCode`; with `idToken`, links the
/// email to that account.
///
/// - Concurrency: `Sendable` value.
package struct EmailLinkSignInBody: WireBody {
  package var email: String?
  package var oobCode: String?
  package var idToken: String?
  package var returnSecureToken: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case email, oobCode, idToken, returnSecureToken
  }
}
