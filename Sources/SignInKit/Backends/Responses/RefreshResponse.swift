/// The reply of a Secure Token refresh. The refresh token may be new: store it.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct RefreshResponse: Sendable, Equatable, CustomStringConvertible {
  public var userID: String
  public var tokens: IssuedTokens

  public init(userID: String, tokens: IssuedTokens) {
    self.userID = userID
    self.tokens = tokens
  }

  public var description: String { "RefreshResponse(userID: \(userID), \(tokens))" }
}
