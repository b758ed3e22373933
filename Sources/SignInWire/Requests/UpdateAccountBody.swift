/// `accounts:update`: a profile, email or password change for the account `idToken` names, or
/// applying an email action code (`oobCode`); an administrator names the account with `localId`
/// and may also set `emailVerified`, `disableUser`, `customAttributes`, `validSince` and
/// `phoneNumber`.
///
/// - Concurrency: `Sendable` value.
package struct UpdateAccountBody: WireBody, TenantNaming {
  package var idToken: String?
  package var oobCode: String?
  package var email: String?
  package var password: String?
  package var displayName: String?
  package var photoUrl: String?
  package var deleteAttribute: [AccountAttribute]?
  package var deleteProvider: [String]?
  /// Passkeys to remove, by credential id (Identity Platform's passkey preview).
  package var deletePasskey: [String]?
  package var returnSecureToken: Bool?
  package var tenantId: String?
  // An administrator's.
  package var localId: String?
  package var emailVerified: Bool?
  package var disableUser: Bool?
  package var customAttributes: String?
  package var validSince: WireInt64?
  package var phoneNumber: String?
  package var targetProjectId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, oobCode, email, password, displayName, photoUrl, deleteAttribute, deleteProvider, returnSecureToken,
      tenantId, localId, emailVerified, disableUser, customAttributes, validSince, phoneNumber, targetProjectId,
      deletePasskey
  }

  package static var unlistedFields: [String: String] { ["deletePasskey": PasskeyPreview.reason] }
}
