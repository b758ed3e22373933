/// The token triple a backend issues: `idToken`, `refreshToken`, `expiresIn` (seconds).
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct IssuedTokens: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var idToken: String
  public var refreshToken: String
  /// Lifetime of the ID token from the moment the reply arrived (Firebase sends `"3600"`).
  public var expiresIn: Duration

  public init(idToken: String, refreshToken: String, expiresIn: Duration) {
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }

  public var description: String { "IssuedTokens(expiresIn: \(expiresIn), tokens redacted)" }
  public var customMirror: Mirror { Mirror(self, children: ["expiresIn": expiresIn]) }
}
