/// Secure Token refresh (`grant_type=refresh_token`).
///
/// - Concurrency: `Sendable` value; its description never contains the token.
public struct RefreshTokenRequest: Sendable, Equatable, CustomStringConvertible,
  CustomReflectable
{
  public var refreshToken: String

  public init(refreshToken: String) { self.refreshToken = refreshToken }

  public var description: String { "RefreshTokenRequest(token redacted)" }
  public var customMirror: Mirror { Mirror(self, children: []) }
}
