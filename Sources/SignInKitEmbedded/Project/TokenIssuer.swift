import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// The backend's tokens: ID tokens minted with its claims and signed with its key, refresh tokens
/// recorded by their digest, and the check of an ID token it issued.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.tokens`).
package struct TokenIssuer {
  let store: EmbeddedStore
  let signing: LazySigningKey
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date

  /// Mints an ID token and a new refresh token for `uid`, recording the refresh token's digest,
  /// how the session signed in, and the developer `claims` of a custom token.
  func issueTokens(
    for uid: String, provider: ProviderID, claims: [String: JSONValue]? = nil
  ) throws -> IssuedTokens {
    try signed(mintTokens(for: uid, provider: provider, claims: claims))
  }

  /// New tokens for the session of `origin` (after an account change): its provider and its
  /// sign-in time carry over.
  func issueTokens(for uid: String, provider origin: SessionOrigin) throws -> IssuedTokens {
    try signed(mintTokens(for: uid, provider: origin.provider, authTime: origin.authTime))
  }

  private func signed(_ unsigned: UnsignedTokens) throws -> IssuedTokens {
    IssuedTokens(
      idToken: try signed(unsigned.claims), refreshToken: unsigned.refreshToken, expiresIn: unsigned.expiresIn)
  }

  /// ``issueTokens(for:provider:claims:)`` but for the signature, which the caller makes off
  /// the actor (``UnsignedTokens/signed()``) once its transaction is over.
  ///
  /// - Parameter authTime: when the session signed in; `nil` for a sign-in now. The refresh
  ///   token keeps it, so every ID token of the session carries it as `auth_time`.
  func mintTokens(
    for uid: String, provider: ProviderID, claims: [String: JSONValue]? = nil, authTime: Date? = nil
  ) throws -> UnsignedTokens {
    let key = try signing.get()
    let account = try store.existingAccount(uid: uid)
    let refreshToken = Base64URL.encode(try Crypto.randomBytes(32))
    let authTime = authTime ?? now()
    try store.insertRefreshToken(
      .init(uid: uid, issuedAt: now(), provider: provider, claims: claims, authTime: authTime),
      digest: StoredSecret.digest(refreshToken))
    return UnsignedTokens(
      claims: idTokenClaims(for: account, provider: provider, sessionClaims: claims, authTime: authTime),
      refreshToken: refreshToken, expiresIn: configuration.tokenLifetime, key: key)
  }

  /// An RS256 ID token with ``idTokenClaims(for:provider:sessionClaims:)``.
  func idToken(
    for account: EmbeddedDatabase.Account, provider: ProviderID, sessionClaims: [String: JSONValue]? = nil
  ) throws -> String {
    try signed(idTokenClaims(for: account, provider: provider, sessionClaims: sessionClaims))
  }

  /// An ID token's claims: Firebase's, then the custom token's `sessionClaims`, then the
  /// account's custom claims (an administrator's word wins).
  func idTokenClaims(
    for account: EmbeddedDatabase.Account, provider: ProviderID, sessionClaims: [String: JSONValue]? = nil,
    authTime: Date? = nil
  ) -> [String: JSONValue] {
    let issuedAt = now().timeIntervalSince1970.rounded(.down)
    var identities: [String: JSONValue] = [:]
    if let email = account.email { identities["email"] = .array([.string(email)]) }
    if let phone = account.phoneNumber { identities["phone"] = .array([.string(phone)]) }
    for info in account.federated {
      identities[info.providerID.rawValue] = .array([.string(info.rawID)])
    }
    var firebase: [String: JSONValue] = [
      "identities": .object(identities), "sign_in_provider": .string(provider.rawValue),
    ]
    if let tenant = configuration.tenantID { firebase["tenant"] = .string(tenant) }
    var claims: [String: JSONValue] = [
      "iss": .string(configuration.issuer), "aud": .string(configuration.projectID),
      "sub": .string(account.uid), "user_id": .string(account.uid),
      "iat": .number(issuedAt), "exp": .number(issuedAt + configuration.tokenLifetime.seconds),
      "auth_time": .number((authTime ?? account.lastLoginAt).timeIntervalSince1970.rounded(.down)),
      "firebase": .object(firebase),
    ]
    if let email = account.email {
      claims["email"] = .string(email)
      claims["email_verified"] = .bool(account.emailVerified)
    }
    if let phone = account.phoneNumber { claims["phone_number"] = .string(phone) }
    if let name = account.displayName { claims["name"] = .string(name) }
    if let photo = account.photoURL { claims["picture"] = .string(photo.absoluteString) }
    if provider == .anonymous { claims["provider_id"] = .string("anonymous") }
    // Claims stored before a name was reserved never override the server's own.
    for (name, value) in (sessionClaims ?? [:]).merging(account.customClaims ?? [:], uniquingKeysWith: { $1 })
    where !AccountRules.reservedClaims.contains(name) {
      claims[name] = value
    }
    return claims
  }

  /// `claims` as an RS256 JWT signed with the backend's key, its `kid` in the header.
  func signed(_ claims: [String: JSONValue]) throws -> String {
    let signing = try signing.get()
    return try JSONWebToken.signed(claims: claims, key: signing.key, kid: signing.keyID)
  }

  /// The uid of a valid ID token this backend issued, and how and when its session signed in.
  func verifiedUser(of idToken: String) throws -> (uid: String, provider: SessionOrigin) {
    let (uid, provider, authTime) = try verifiedSession(of: idToken)
    return (uid, SessionOrigin(provider: provider, authTime: authTime))
  }

  /// Like ``verifiedUser(of:)``, for a change that needs a recent sign-in (password, email,
  /// deletion): the token's `auth_time` must be within ``recentSignInWindow``, as Firebase asks
  /// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`). Refreshing a token does not renew `auth_time`; signing
  /// in again (`Auth/reauthenticate(email:password:)`) does.
  func verifiedRecentUser(of idToken: String) throws -> (uid: String, provider: SessionOrigin) {
    let (uid, provider, authTime) = try verifiedSession(of: idToken)
    guard let authTime, now().timeIntervalSince(authTime) <= Self.recentSignInWindow.seconds else {
      throw AuthError(
        firebase: .credentialTooOldLoginAgain,
        message: "This change needs a recent sign-in. Sign in again (reauthenticate), then retry.")
    }
    return (uid, SessionOrigin(provider: provider, authTime: authTime))
  }

  /// How recent a sign-in must be for a sensitive change: 5 minutes, as Firebase's.
  static let recentSignInWindow: Duration = .seconds(5 * 60)

  private func verifiedSession(of idToken: String) throws -> (uid: String, provider: ProviderID, authTime: Date?) {
    let verifier = JWTVerifier(
      issuer: configuration.issuer, audiences: [configuration.projectID], leeway: 0, now: now)
    let key = try signing.get()
    let jwt: JSONWebToken
    do {
      jwt = try verifier.verify(idToken, keys: JSONWebKeySet(keys: [.init(kid: key.keyID, publicKey: key.publicKey)]))
    } catch TokenError.expired {
      throw AuthError(firebase: .tokenExpired, message: "The ID token has expired. Refresh it.")
    } catch {
      throw AuthError(firebase: .invalidIdToken, message: "The ID token is invalid.")
    }
    guard jwt.claims["firebase"]?.object?["tenant"]?.string == configuration.tenantID else {
      throw AuthError(
        firebase: .tenantIdMismatch,
        message: "The ID token belongs to another tenant than the call names. Send the tenantId of the user's tenant.")
    }
    guard let uid = jwt.subject, let account = try store.account(uid: uid) else {
      throw AuthError(firebase: .userNotFound)
    }
    guard !account.disabled else {
      throw AuthError(firebase: .userDisabled)
    }
    if let issuedAt = jwt.issuedAt, account.revokes(issuedAt: issuedAt) {
      throw AuthError(firebase: .tokenExpired, message: "The session was revoked. Sign in again.")
    }
    let provider = jwt.claims["firebase"]?.object?["sign_in_provider"]?.string ?? "password"
    let authTime = jwt.claims["auth_time"]?.number.map { Date(timeIntervalSince1970: $0) }
    return (uid, ProviderID(rawValue: provider), authTime)
  }

  package nonisolated(nonsending) func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    let digest = StoredSecret.digest(request.refreshToken)
    guard let record = try store.refreshToken(digest: digest) else {
      throw AuthError(firebase: .invalidRefreshToken, message: "The refresh token is invalid or revoked.")
    }
    guard let account = try store.account(uid: record.uid) else {
      throw AuthError(firebase: .userNotFound)
    }
    guard !account.disabled else {
      throw AuthError(firebase: .userDisabled)
    }
    guard !account.revokes(issuedAt: record.issuedAt) else {
      throw AuthError(firebase: .tokenExpired, message: "The session was revoked. Sign in again.")
    }
    try store.countRefresh(digest: digest)
    let refreshedAt = now()
    if (account.lastRefreshAt ?? .distantPast).timeIntervalSince1970.rounded(.down)
      < refreshedAt.timeIntervalSince1970.rounded(.down)
    {
      // Kept to the second, so a burst of refreshes of one account writes once a second.
      try store.updateAccount(uid: account.uid) { $0.lastRefreshAt = refreshedAt }
    }
    let provider = record.provider ?? Self.signInProvider(inferredFrom: account)
    let unsigned = UnsignedTokens(
      claims: idTokenClaims(
        for: account, provider: provider, sessionClaims: record.claims, authTime: record.authTime),
      refreshToken: request.refreshToken, expiresIn: configuration.tokenLifetime, key: try signing.get())
    let uid = account.uid
    return RefreshResponse(userID: uid, tokens: try await unsigned.signed())
  }

  /// The sign-in provider of a session stored without one (by an earlier version of the store):
  /// the password or email link for an account with an email, else its first linked provider,
  /// else its phone number, else anonymous.
  static func signInProvider(inferredFrom account: EmbeddedDatabase.Account) -> ProviderID {
    if account.password != nil || (account.email != nil && account.federated.isEmpty) { return .password }
    if let linked = account.federated.first { return linked.providerID }
    return account.phoneNumber != nil ? .phone : .anonymous
  }
}
