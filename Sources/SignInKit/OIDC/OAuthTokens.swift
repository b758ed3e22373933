import Foundation
import SignInConcurrency

/// A token endpoint's reply (RFC 6749 §5.1, OIDC Core §3.1.3.3): the ID token when the
/// `openid` scope was granted, the access token, and a refresh token when one was issued.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct OAuthTokens: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var idToken: String?
  public var accessToken: String
  public var refreshToken: String?
  /// The access token's lifetime as the issuer said it, relative to when it answered.
  public var expiresIn: Duration?
  /// When the access token expires, set from ``expiresIn`` when the tokens arrived; `nil` when
  /// the issuer did not say.
  public var expiresAt: Date?
  /// The scopes the issuer granted, space-separated, when it said (RFC 6749 §5.1).
  public var scope: String?
  /// Google: the one-time code for the app's server (`server_code`), when the client names a
  /// server client ID (``OIDCClient/audience``). The server exchanges it for its own tokens, for
  /// offline access; it is good once, for a few minutes.
  public var serverAuthCode: String?

  public init(
    idToken: String?, accessToken: String, refreshToken: String? = nil, expiresIn: Duration? = nil,
    scope: String? = nil,
    expiresAt: Date? = nil, serverAuthCode: String? = nil
  ) {
    self.idToken = idToken
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
    self.scope = scope
    self.expiresAt = expiresAt
    self.serverAuthCode = serverAuthCode
  }

  /// These tokens with ``expiresAt`` set from ``expiresIn``, counted from `receivedAt`.
  func received(at receivedAt: Date) -> OAuthTokens {
    var tokens = self
    if let expiresIn { tokens.expiresAt = receivedAt.addingTimeInterval(expiresIn.seconds) }
    return tokens
  }

  public var description: String {
    "OAuthTokens(idToken: \(idToken != nil), refreshToken: \(refreshToken != nil), tokens redacted)"
  }
  public var customMirror: Mirror {
    Mirror(self, children: ["expiresIn": expiresIn as Any, "expiresAt": expiresAt as Any, "scope": scope as Any])
  }
}
