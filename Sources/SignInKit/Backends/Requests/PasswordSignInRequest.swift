/// `accounts:signInWithPassword`.
///
/// - Concurrency: `Sendable` value; its description never contains the password.
public struct PasswordSignInRequest: Sendable, Equatable, CustomStringConvertible,
  CustomReflectable
{
  public var email: String
  public var password: String

  public init(email: String, password: String) {
    self.email = email
    self.password = password
  }

  public var description: String { "PasswordSignInRequest(email: \(email))" }
  public var customMirror: Mirror { Mirror(self, children: ["email": email]) }
}
