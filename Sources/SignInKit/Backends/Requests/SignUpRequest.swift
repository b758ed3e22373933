/// `accounts:signUp`. All fields `nil`: an anonymous account. `email` and `password`: a new
/// email/password account, or, with `idToken`, email/password linked to that user (same uid).
///
/// - Concurrency: `Sendable` value; its description never contains the password or token.
public struct SignUpRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var email: String?
  public var password: String?
  public var displayName: String?
  /// The ID token of the user to link to.
  public var idToken: String?

  public init(
    email: String? = nil, password: String? = nil, displayName: String? = nil,
    idToken: String? = nil
  ) {
    self.email = email
    self.password = password
    self.displayName = displayName
    self.idToken = idToken
  }

  public var description: String {
    "SignUpRequest(email: \(email ?? "nil"), linking: \(idToken != nil))"
  }
  public var customMirror: Mirror { Mirror(self, children: ["email": email as Any]) }
}
