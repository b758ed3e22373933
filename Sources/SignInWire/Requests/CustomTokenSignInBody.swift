/// `accounts:signInWithCustomToken`.
///
/// - Concurrency: `Sendable` value.
package struct CustomTokenSignInBody: WireBody {
  package var token: String?
  package var returnSecureToken: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case token, returnSecureToken
  }
}
