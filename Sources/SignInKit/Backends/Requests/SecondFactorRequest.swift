import SignInWire

/// Identity Platform's v2 second-factor calls, for TOTP: `accounts/mfaEnrollment:start`,
/// `:finalize` and `:withdraw`, and `accounts/mfaSignIn:finalize`.
///
/// - Concurrency: `Sendable` value; its description never contains a token, code or secret.
public enum SecondFactorRequest: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// Make a TOTP secret for the user of `idToken` (`totpEnrollmentInfo: {}`).
  case startTOTPEnrollment(idToken: String)
  /// Finish the enrollment `sessionInfo` names with the first code the app shows.
  case finalizeTOTPEnrollment(idToken: String, sessionInfo: String, code: String, displayName: String?)
  /// Remove the enrolled factor `enrollmentID` from the user of `idToken`.
  case withdraw(idToken: String, enrollmentID: String)
  /// Finish a sign-in that waits for a second factor, with a code of `enrollmentID`.
  case finalizeTOTPSignIn(pendingCredential: String, enrollmentID: String, code: String)

  /// The v2 method, as in `accounts/mfaEnrollment:start`.
  public var method: String {
    let name = endpoint.name
    return name.range(of: "accounts/").map { String(name[$0.upperBound...]) } ?? name
  }

  /// The call it makes.
  package var endpoint: any EndpointDescription {
    switch self {
    case .startTOTPEnrollment: FirebaseAPI.startMfaEnrollment
    case .finalizeTOTPEnrollment: FirebaseAPI.finalizeMfaEnrollment
    case .withdraw: FirebaseAPI.withdrawMfa
    case .finalizeTOTPSignIn: FirebaseAPI.finalizeMfaSignIn
    }
  }

  public var description: String { "SecondFactorRequest(\(method))" }
  public var customMirror: Mirror { Mirror(self, children: ["method": method]) }
}
