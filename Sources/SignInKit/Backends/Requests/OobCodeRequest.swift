import SignInWire

/// `accounts:sendOobCode`: asks the backend to send an out-of-band code by email.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public enum OobCodeRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// `PASSWORD_RESET` to this address.
  case passwordReset(email: String)
  /// `VERIFY_EMAIL` to the address of the token's user.
  case verifyEmail(idToken: String)
  /// `VERIFY_AND_CHANGE_EMAIL`: verify `newEmail`, then make it the user's email.
  case verifyAndChangeEmail(idToken: String, newEmail: String)
  /// `EMAIL_SIGNIN`: a sign-in link to this address.
  case emailSignIn(email: String)

  /// The wire `requestType` (`PASSWORD_RESET`).
  public var requestType: String { kind.rawValue }

  /// The wire `requestType`.
  package var kind: OobRequestType {
    switch self {
    case .passwordReset: .passwordReset
    case .verifyEmail: .verifyEmail
    case .verifyAndChangeEmail: .verifyAndChangeEmail
    case .emailSignIn: .emailSignIn
    }
  }

  public var description: String {
    switch self {
    case .passwordReset(let email), .emailSignIn(let email), .verifyAndChangeEmail(_, let email):
      "OobCodeRequest(\(requestType), \(email))"
    case .verifyEmail: "OobCodeRequest(\(requestType))"
    }
  }
  public var customMirror: Mirror { Mirror(self, children: ["requestType": requestType]) }
}
