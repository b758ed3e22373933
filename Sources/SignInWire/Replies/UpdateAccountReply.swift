/// `accounts:update`: the account as the change left it, and new tokens when the change replaced
/// them (a new email or password).
///
/// - Concurrency: `Sendable` value.
package struct UpdateAccountReply: WireBody, LenientValue {
  @Lenient package var kind: String?
  @Lenient package var localId: String?
  @Lenient package var email: String?
  @Lenient package var emailVerified: Bool?
  @Lenient package var displayName: String?
  @Lenient package var photoUrl: String?
  @Lenient package var providerUserInfo: [ProviderUserInfo]?
  @Lenient package var passwordHash: String?
  /// The address a verify-and-change code will set.
  @Lenient package var newEmail: String?
  @Lenient package var idToken: String?
  @Lenient package var refreshToken: String?
  @Lenient package var expiresIn: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, localId, email, emailVerified, displayName, photoUrl, providerUserInfo, passwordHash, newEmail, idToken,
      refreshToken, expiresIn
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + ProviderUserInfo.fieldNames }
}
