/// The reply of `accounts:update`: the account as changed, and new tokens when the email or
/// password changed (the old ones are revoked then).
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct UpdateAccountResponse: Sendable, Equatable, CustomStringConvertible {
  public var account: AccountInfo
  public var tokens: IssuedTokens?

  public init(account: AccountInfo, tokens: IssuedTokens? = nil) {
    self.account = account
    self.tokens = tokens
  }

  public var description: String {
    "UpdateAccountResponse(localID: \(account.localID), newTokens: \(tokens != nil))"
  }
}
