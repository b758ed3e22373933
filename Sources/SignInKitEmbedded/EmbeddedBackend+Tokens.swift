import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// How the session of a verified ID token signed in: its first factor, and when (`auth_time`).
/// Tokens issued again for the same session (after an account change) keep both, so that
/// changing a profile never makes an old session look like a recent sign-in.
struct SessionOrigin: Sendable {
  var provider: ProviderID
  var authTime: Date?
}

extension EmbeddedBackend {

  // MARK: - Secure Token

  /// Forgets the refresh token, so no copy of the signed-out session can be refreshed. An
  /// unknown token is not an error: the session is gone either way.
  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {
    try store.deleteRefreshToken(digest: StoredSecret.digest(request.refreshToken))
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    guard let record = try store.refreshToken(digest: StoredSecret.digest(request.refreshToken)) else {
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
    let refreshedAt = now()
    if (account.lastRefreshAt ?? .distantPast).timeIntervalSince1970.rounded(.down)
      < refreshedAt.timeIntervalSince1970.rounded(.down)
    {
      // Kept to the second, so a burst of refreshes of one account writes once a second.
      try store.updateAccount(uid: account.uid) { $0.lastRefreshAt = refreshedAt }
    }
    let provider = record.provider ?? Self.signInProvider(inferredFrom: account)
    let unsigned = UnsignedTokens(
      claims: tokens.idTokenClaims(
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
