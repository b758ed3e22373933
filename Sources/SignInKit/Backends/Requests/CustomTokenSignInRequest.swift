/// `accounts:signInWithCustomToken`: a token your server minted with a service account.
///
/// - Concurrency: `Sendable` value; its description never contains the token.
public struct CustomTokenSignInRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var token: String

  public init(token: String) { self.token = token }

  public var description: String { "CustomTokenSignInRequest(token: \(token.count) characters)" }
  public var customMirror: Mirror { Mirror(self, children: ["tokenLength": token.count]) }
}
