/// Identity Platform's passkey calls (a preview on Firebase): `accounts/passkeyEnrollment:start`
/// and `:finalize`, `accounts/passkeySignIn:start` and `:finalize`.
///
/// - Concurrency: `Sendable` value; its description never contains a token.
public enum PasskeyRequest: Sendable, Equatable, CustomStringConvertible {
  /// The creation options for a new passkey of the user of `idToken`.
  case startEnrollment(idToken: String)
  /// Check and keep the passkey `registration` made, named `name`.
  case finishEnrollment(idToken: String, name: String, registration: PasskeyRegistration)
  /// A challenge for a passkey sign-in.
  case startSignIn
  /// Check `assertion` and sign in the passkey's account.
  case finishSignIn(PasskeyAssertion)

  public var description: String {
    switch self {
    case .startEnrollment: "PasskeyRequest.startEnrollment"
    case .finishEnrollment(_, let name, let registration): "PasskeyRequest.finishEnrollment(\(name), \(registration))"
    case .startSignIn: "PasskeyRequest.startSignIn"
    case .finishSignIn(let assertion): "PasskeyRequest.finishSignIn(\(assertion))"
    }
  }
}
