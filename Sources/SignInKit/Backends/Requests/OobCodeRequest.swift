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

  /// The wire `requestType`.
  public var requestType: String {
    switch self {
    case .passwordReset: "PASSWORD_RESET"
    case .verifyEmail: "VERIFY_EMAIL"
    case .verifyAndChangeEmail: "VERIFY_AND_CHANGE_EMAIL"
    case .emailSignIn: "EMAIL_SIGNIN"
    }
  }

  public var description: String {
    switch self {
    case .passwordReset(let email): "OobCodeRequest(PASSWORD_RESET, \(email))"
    case .verifyEmail: "OobCodeRequest(VERIFY_EMAIL)"
    case .verifyAndChangeEmail(_, let email): "OobCodeRequest(VERIFY_AND_CHANGE_EMAIL, \(email))"
    case .emailSignIn(let email): "OobCodeRequest(EMAIL_SIGNIN, \(email))"
    }
  }
  public var customMirror: Mirror { Mirror(self, children: ["requestType": requestType]) }
}
