/// `accounts:update`: a profile, email or password change for the account `idToken` names, or
/// applying an email action code (`oobCode`).
///
/// - Concurrency: `Sendable` value.
package struct UpdateAccountBody: WireBody {
  package var idToken: String?
  package var oobCode: String?
  package var email: String?
  package var password: String?
  package var displayName: String?
  package var photoUrl: String?
  package var deleteAttribute: [String]?
  package var deleteProvider: [String]?
  package var returnSecureToken: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, oobCode, email, password, displayName, photoUrl, deleteAttribute, deleteProvider, returnSecureToken
  }
}
