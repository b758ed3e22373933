/// `accounts:lookup` for the user an ID token belongs to.
///
/// - Concurrency: `Sendable` value; its description never contains the token.
public struct LookupRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var idToken: String

  public init(idToken: String) { self.idToken = idToken }

  public var description: String { "LookupRequest(token redacted)" }
  public var customMirror: Mirror { Mirror(self, children: []) }
}
