/// The reply of `signUp`, `signInWithPassword` and `signInWithIdp`.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public struct SignInResponse: Sendable, Equatable, CustomStringConvertible {
  /// The uid (`localId`).
  public var localID: String
  public var email: String?
  public var tokens: IssuedTokens
  /// `true` when the call created the account.
  public var isNewUser: Bool

  public init(localID: String, email: String? = nil, tokens: IssuedTokens, isNewUser: Bool) {
    self.localID = localID
    self.email = email
    self.tokens = tokens
    self.isNewUser = isNewUser
  }

  public var description: String {
    "SignInResponse(localID: \(localID), isNewUser: \(isNewUser), \(tokens))"
  }
}
