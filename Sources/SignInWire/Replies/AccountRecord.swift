/// A user as `accounts:lookup` and `accounts:batchGet` list it and `accounts:batchCreate` imports
/// it (Google's `UserInfo`), with what the admin calls describe (`validSince`,
/// `customAttributes`). Times are milliseconds since 1970 and `validSince` seconds, as strings.
///
/// - Concurrency: `Sendable` value.
package struct AccountRecord: WireBody, LenientValue {
  /// What Firebase sends a client as an account's `passwordHash` when it has a password:
  /// `REDACTED`, base64-encoded.
  package static let redactedPasswordHash = "UkVEQUNURUQ="

  @Lenient package var localId: String?
  @Lenient package var email: String?
  @Lenient package var phoneNumber: String?
  @Lenient package var emailVerified: Bool?
  @Lenient package var displayName: String?
  @Lenient package var photoUrl: String?
  @Lenient package var disabled: Bool?
  @Lenient package var providerUserInfo: [ProviderUserInfo]?
  @Lenient package var createdAt: String?
  @Lenient package var lastLoginAt: String?
  @Lenient package var mfaInfo: [MFAEnrollment]?
  /// Enrolled passkeys (Identity Platform's passkey preview).
  @Lenient package var passkeyInfo: [PasskeyInfoRecord]?
  @Lenient package var validSince: String?
  /// When the password was last set, in milliseconds since 1970 (a number, as Firebase sends it).
  @Lenient package var passwordUpdatedAt: Double?
  /// When the user last got an ID token, by sign-in or refresh (ISO 8601, as Firebase sends it).
  @Lenient package var lastRefreshAt: String?
  @Lenient package var customAttributes: String?
  @Lenient package var customAuth: Bool?
  /// The password's hash and salt (base64url), for an administrator (`users.passwordHash`); a
  /// client's lookup gets ``redactedPasswordHash`` and no salt.
  @Lenient package var passwordHash: String?
  @Lenient package var salt: String?
  /// A password in clear, in an import: hashed by the server at its own cost.
  @Lenient package var rawPassword: String?
  @Lenient package var tenantId: String?

  package init() {}

  /// A record of the fields an account update answers with.
  package init(
    localId: String?, email: String?, emailVerified: Bool?, displayName: String?, photoUrl: String?,
    providerUserInfo: [ProviderUserInfo]?
  ) {
    self.localId = localId
    self.email = email
    self.emailVerified = emailVerified
    self.displayName = displayName
    self.photoUrl = photoUrl
    self.providerUserInfo = providerUserInfo
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case localId, email, phoneNumber, emailVerified, displayName, photoUrl, disabled, providerUserInfo, createdAt,
      lastLoginAt, mfaInfo, validSince, passwordUpdatedAt, lastRefreshAt, customAttributes, customAuth, passwordHash,
      salt, rawPassword, tenantId, passkeyInfo
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + ProviderUserInfo.fieldNames + MFAEnrollment.fieldNames
      + PasskeyInfoRecord.fieldNames
  }

  package static var unlistedFields: [String: String] {
    ["passkeyInfo": PasskeyPreview.reason, "name": PasskeyPreview.reason, "credentialId": PasskeyPreview.reason]
  }
}
