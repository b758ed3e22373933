/// `accounts:signUp`: a new account (email and password, or anonymous), or an anonymous account
/// given an email and password when `idToken` is set.
///
/// - Concurrency: `Sendable` value.
package struct SignUpBody: WireBody {
  package var email: String?
  package var password: String?
  package var displayName: String?
  package var idToken: String?
  package var returnSecureToken: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case email, password, displayName, idToken, returnSecureToken
  }
}
