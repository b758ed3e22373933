/// What every sign-in call answers (`signUp`, `signInWithPassword`, `signInWithIdp`,
/// `signInWithCustomToken`, `signInWithEmailLink`, v2 `mfaSignIn:finalize`): the new tokens and
/// whose they are; or, with `mfaPendingCredential` and no tokens, that the sign-in waits for a
/// second factor; or, for `signInWithIdp`, a failure told with status 200 (`needConfirmation`,
/// `errorMessage`).
///
/// - Concurrency: `Sendable` value.
package struct SignInReply: WireBody, LenientValue {
  @Lenient package var kind: String?
  @Lenient package var localId: String?
  @Lenient package var email: String?
  @Lenient package var displayName: String?
  @Lenient package var idToken: String?
  @Lenient package var refreshToken: String?
  @Lenient package var expiresIn: String?
  @Lenient package var isNewUser: Bool?
  @Lenient package var registered: Bool?
  @Lenient package var providerId: String?
  @Lenient package var needConfirmation: Bool?
  @Lenient package var errorMessage: String?
  /// `signInWithIdp` with `returnIdpCredential`: the IdP's tokens, for a credential the client
  /// can sign in with when the link failed.
  @Lenient package var oauthIdToken: String?
  /// The backend's token for the IdP identity a conflict verified, to sign in with instead of
  /// the IdP's token (which may not be sent twice).
  @Lenient package var pendingToken: String?
  @Lenient package var oauthAccessToken: String?
  /// An OAuth 1.0 provider's (X's) token secret, beside its access token.
  @Lenient package var oauthTokenSecret: String?
  @Lenient package var mfaPendingCredential: String?
  @Lenient package var mfaInfo: [MFAEnrollment]?
  /// The number a phone sign-in proved (`signInWithPhoneNumber`).
  @Lenient package var phoneNumber: String?
  /// `signInWithIdp`: what the IdP said of the user, as the emulator and production return it.
  /// Google's identity is `https://accounts.google.com/SUB`, another IdP's its `sub`.
  @Lenient package var federatedId: String?
  /// The IdP's claims (Google's in its userinfo shape), as a JSON string.
  @Lenient package var rawUserInfo: String?
  @Lenient package var firstName: String?
  @Lenient package var lastName: String?
  @Lenient package var fullName: String?
  @Lenient package var emailVerified: Bool?
  @Lenient package var photoUrl: String?
  @Lenient package var screenName: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, localId, email, displayName, idToken, refreshToken, expiresIn, isNewUser, registered, providerId,
      needConfirmation, errorMessage, oauthIdToken, oauthAccessToken, oauthTokenSecret, pendingToken,
      mfaPendingCredential, mfaInfo,
      phoneNumber, federatedId, rawUserInfo, firstName, lastName, fullName, emailVerified, photoUrl, screenName
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + MFAEnrollment.fieldNames
  }
}
