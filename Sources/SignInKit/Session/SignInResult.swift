/// What a successful sign-in, sign-up or link returns.
///
/// - Concurrency: `Sendable` value.
public struct SignInResult: Sendable, Equatable {
  public let user: User
  /// `true` when this call created the account.
  public let isNewUser: Bool
  /// The method used.
  public let providerID: ProviderID
  /// What the identity provider said about the user (its profile, Apple's authorization code
  /// and real-user status), for ``Auth/signIn(with:)-(SignInProvider)`` and ``Auth/link(with:)-(SignInProvider)``; `nil` for
  /// email, anonymous and custom-token sign-ins.
  public let additionalUserInfo: AdditionalUserInfo?
  /// The identity provider's credential, for calling its API after the sign-in (FirebaseAuth's
  /// `AuthDataResult.credential`): the tokens the provider gave, or the backend returned after
  /// a hosted sign-in (GitHub's or Microsoft's access token, X's token and secret), and the raw
  /// nonce the sign-in used. `nil` for email, phone, passkey, anonymous and custom-token
  /// sign-ins. Treat it as a secret; its description names the provider only.
  public let credential: ProviderCredential?

  public init(
    user: User, isNewUser: Bool, providerID: ProviderID, additionalUserInfo: AdditionalUserInfo? = nil,
    credential: ProviderCredential? = nil
  ) {
    self.user = user
    self.isNewUser = isNewUser
    self.providerID = providerID
    self.additionalUserInfo = additionalUserInfo
    self.credential = credential
  }

  /// The result of a sign-in with `credential` (`nil`: none, as for email) that the backend
  /// answered with `response`: what the provider and the backend said of the user, and the
  /// credential as the sign-in ended.
  init(
    user: User, isNewUser: Bool, providerID: ProviderID, credential: ProviderCredential?,
    answeredWith response: SignInResponse
  ) {
    self.init(
      user: user, isNewUser: isNewUser, providerID: providerID,
      additionalUserInfo: credential.map { AdditionalUserInfo(credential: $0, response: response) },
      credential: credential.map { Self.providerCredential($0, answeredWith: response) })
  }

  /// `credential` as the provider's sign-in ended: the tokens the backend returned in place of
  /// the ones it was sent, none of the hand-over's own fields (a hosted handler's URL, session,
  /// pending token).
  private static func providerCredential(_ credential: ProviderCredential, answeredWith response: SignInResponse)
    -> ProviderCredential
  {
    var ended = credential
    if let returned = response.providerCredential {
      ended.idToken = returned.idToken ?? ended.idToken
      ended.accessToken = returned.accessToken ?? ended.accessToken
      ended.secret = returned.secret ?? ended.secret
    }
    ended.pendingToken = nil
    ended.responseURL = nil
    ended.sessionID = nil
    return ended
  }
}
