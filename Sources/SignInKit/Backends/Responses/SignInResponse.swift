/// The reply of `signUp`, `signInWithPassword` and `signInWithIdp`.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct SignInResponse: Sendable, Equatable, CustomStringConvertible {
  /// The uid (`localId`).
  public var localID: String
  public var email: String?
  public var tokens: IssuedTokens
  /// `true` when the call created the account.
  public var isNewUser: Bool
  /// `signInWithIdp`: the identity provider's own tokens, as the backend returned them
  /// (`oauthAccessToken`, `oauthIdToken`, `oauthTokenSecret`), so the app can call the
  /// provider's API (GitHub, Microsoft Graph); `nil` when it returned none.
  public var providerCredential: ProviderCredential?
  /// `signInWithIdp`: the provider's profile of the user (`rawUserInfo`) and its username
  /// (`screenName`: GitHub's login, X's handle).
  public var rawUserInfo: [String: ClaimValue]?
  public var username: String?

  public init(
    localID: String, email: String? = nil, tokens: IssuedTokens, isNewUser: Bool,
    providerCredential: ProviderCredential? = nil, rawUserInfo: [String: ClaimValue]? = nil, username: String? = nil
  ) {
    self.localID = localID
    self.email = email
    self.tokens = tokens
    self.isNewUser = isNewUser
    self.providerCredential = providerCredential
    self.rawUserInfo = rawUserInfo
    self.username = username
  }

  public var description: String {
    "SignInResponse(localID: \(localID), isNewUser: \(isNewUser), \(tokens))"
  }
}
