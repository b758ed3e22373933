/// `accounts:signInWithPhoneNumber`: the code a phone received proves its number. Without
/// `idToken` it signs in (or signs up) the account with that number; with it, the number joins
/// that user, as a new one (``Operation/link``) or in place of theirs (``Operation/update``).
///
/// - Concurrency: `Sendable` value; its description never contains the code or the ID token.
public struct PhoneSignInRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// What the code is for when an ID token is sent.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Operation: Sendable, Equatable {
    /// Add the number to the user, who has none.
    case link
    /// Replace the user's number.
    case update
  }

  /// The verification the code was texted for (`sessionInfo`).
  public var verificationID: String
  public var code: String
  /// The signed-in user's ID token, to link or update their number.
  public var idToken: String?
  public var operation: Operation?

  public init(verificationID: String, code: String, idToken: String? = nil, operation: Operation? = nil) {
    self.verificationID = verificationID
    self.code = code
    self.idToken = idToken
    self.operation = operation
  }

  public var description: String {
    "PhoneSignInRequest(\(operation.map { "\($0)" } ?? "sign-in"), code redacted)"
  }
  public var customMirror: Mirror { Mirror(self, children: ["operation": operation as Any]) }
}
