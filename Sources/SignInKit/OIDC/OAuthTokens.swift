import Foundation

/// A token endpoint's reply (RFC 6749 §5.1, OIDC Core §3.1.3.3): the ID token when the
/// `openid` scope was granted, the access token, and a refresh token when one was issued.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct OAuthTokens: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var idToken: String?
  public var accessToken: String
  public var refreshToken: String?
  public var expiresIn: Duration?
  public var scope: String?

  public init(
    idToken: String?, accessToken: String, refreshToken: String? = nil, expiresIn: Duration? = nil, scope: String? = nil
  ) {
    self.idToken = idToken
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
    self.scope = scope
  }

  public var description: String {
    "OAuthTokens(idToken: \(idToken != nil), refreshToken: \(refreshToken != nil), tokens redacted)"
  }
  public var customMirror: Mirror {
    Mirror(self, children: ["expiresIn": expiresIn as Any, "scope": scope as Any])
  }
}
