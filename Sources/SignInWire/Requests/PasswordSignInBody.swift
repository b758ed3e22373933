/// `accounts:signInWithPassword`.
///
/// - Concurrency: `Sendable` value.
package struct PasswordSignInBody: WireBody {
  package var email: String?
  package var password: String?
  package var returnSecureToken: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case email, password, returnSecureToken
  }
}
