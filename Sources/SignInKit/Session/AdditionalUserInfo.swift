import SignInCrypto

/// What the identity provider said about the user at a sign-in or link, beyond the account the
/// backend keeps: FirebaseAuth's `additionalUserInfo`. Read it from
/// ``SignInResult/additionalUserInfo`` right after the call; it is not stored.
///
/// ```swift
/// let result = try await auth.signIn(with: AppleProvider.systemSheet(presentingFrom: window))
/// if let code = result.additionalUserInfo?.authorizationCode { keychain.appleCode = code }
/// if result.isNewUser, result.additionalUserInfo?.realUserStatus == .likelyReal { skipCaptcha() }
/// ```
///
/// - Concurrency: `Sendable` value. Its description and mirror leave out the authorization code.
public struct AdditionalUserInfo: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// The provider that signed the user in.
  public var providerID: ProviderID
  /// The user's id at the provider: Apple's user identifier, the ID token's `sub`.
  public var providerUserID: String?
  /// The email the provider shared (Apple: the person's own or a private relay address).
  public var email: String?
  /// The name parts the provider shared (Apple: on the first sign-in only).
  public var givenName: String?
  public var familyName: String?
  /// Sign in with Apple's one-time authorization code: valid for five minutes and usable once.
  /// Pass it to ``Auth/deleteAccount(revokingAppleAuthorizationCode:)`` (or
  /// ``Auth/revokeAppleToken(authorizationCode:)``) when the user deletes their account; App
  /// Store Review Guideline 5.1.1(v) asks for that. Treat it as a secret.
  public var authorizationCode: String?
  /// Sign in with Apple's guess whether a real person signed in.
  public var realUserStatus: AppleProvider.RealUserStatus?
  /// The provider's profile of the user: what the backend returned of it (`rawUserInfo`:
  /// GitHub's `login`, `avatar_url`, …) or, without that, the claims of the provider's ID token
  /// (`name`, `picture`, `locale`, Google's `hd`, …) as the token carried them.
  public var profile: [String: ClaimValue]
  /// The user's name at the provider, when it has one apart from the email (GitHub's login,
  /// X's handle).
  public var username: String?

  public init(
    providerID: ProviderID, providerUserID: String? = nil, email: String? = nil, givenName: String? = nil,
    familyName: String? = nil, authorizationCode: String? = nil,
    realUserStatus: AppleProvider.RealUserStatus? = nil, profile: [String: ClaimValue] = [:], username: String? = nil
  ) {
    self.providerID = providerID
    self.providerUserID = providerUserID
    self.email = email
    self.givenName = givenName
    self.familyName = familyName
    self.authorizationCode = authorizationCode
    self.realUserStatus = realUserStatus
    self.profile = profile
    self.username = username
  }

  /// What `credential` says: what the provider returned beside its token, completed from the
  /// token's own claims (`sub`, `email`, `given_name`, `family_name`).
  public init(credential: ProviderCredential) {
    var claims: [String: ClaimValue] = [:]
    if let token = credential.idToken, let jwt = try? JSONWebToken(decoding: token) {
      claims = jwt.claims.mapValues(ClaimValue.init)
    }
    self.init(
      providerID: credential.providerID, providerUserID: credential.providerUserID ?? claims["sub"]?.string,
      email: credential.email ?? claims["email"]?.string,
      givenName: credential.givenName ?? claims["given_name"]?.string,
      familyName: credential.familyName ?? claims["family_name"]?.string,
      authorizationCode: credential.authorizationCode, realUserStatus: credential.realUserStatus, profile: claims)
  }

  /// What `credential` and the backend's answer to it say together: the profile and username
  /// the backend returned, over the token's claims.
  public init(credential: ProviderCredential, response: SignInResponse) {
    self.init(credential: credential)
    if let raw = response.rawUserInfo, !raw.isEmpty {
      profile = raw
      email = email ?? raw["email"]?.string
      providerUserID = providerUserID ?? raw["id"].map { $0.string ?? "\($0)" }
    }
    username = response.username ?? profile["login"]?.string ?? profile["screen_name"]?.string
  }

  public var description: String {
    "AdditionalUserInfo(\(providerID), \(profile.count) profile claims, authorization code "
      + "\(authorizationCode == nil ? "none" : "redacted"))"
  }

  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "providerID": providerID, "providerUserID": providerUserID as Any, "email": email as Any,
        "givenName": givenName as Any, "familyName": familyName as Any, "realUserStatus": realUserStatus as Any,
        "profile": profile, "username": username as Any,
      ])
  }
}
