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
  /// unknown token is not an error: the session is gone either way. Firebase has no call for
  /// this (its refresh tokens outlive a sign-out), so it is this backend's own, not the service's.
  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {
    try store.deleteRefreshToken(digest: StoredSecret.digest(request.refreshToken))
  }

  /// How many times the sessions of `uid` were refreshed, by any process on this database: for
  /// tests that check processes sharing a session refresh once between them.
  package func refreshCount(of uid: String) throws -> Int {
    try store.refreshCount(uid: uid)
  }
}
