/// `accounts:signInWithEmailLink`: signs in (or, with `idToken`, links) with the code of an
/// emailed sign-in link.
///
/// - Concurrency: `Sendable` value; its description never contains the code or a token.
public struct EmailLinkSignInRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  public var email: String
  public var oobCode: String
  /// The signed-in user to attach the email to (an anonymous user keeps their uid).
  public var idToken: String?

  public init(email: String, oobCode: String, idToken: String? = nil) {
    self.email = email
    self.oobCode = oobCode
    self.idToken = idToken
  }

  public var description: String { "EmailLinkSignInRequest(\(email), linking: \(idToken != nil))" }
  public var customMirror: Mirror { Mirror(self, children: ["email": email]) }
}
