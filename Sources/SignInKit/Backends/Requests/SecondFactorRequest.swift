import SignInWire

/// Identity Platform's v2 second-factor calls, for TOTP and SMS: `accounts/mfaEnrollment:start`,
/// `:finalize` and `:withdraw`, and `accounts/mfaSignIn:start` and `:finalize`.
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
  /// Text a code to `phoneNumber` (E.164) to enroll it as a second factor of the user of
  /// `idToken`, whose email must be verified.
  case startPhoneEnrollment(idToken: String, phoneNumber: String)
  /// Finish the SMS enrollment `verificationID` names with the texted code.
  case finalizePhoneEnrollment(idToken: String, verificationID: String, code: String, displayName: String?)
  /// Text a code to the enrolled phone `enrollmentID` of a sign-in that waits for its second
  /// factor.
  case startPhoneSignIn(pendingCredential: String, enrollmentID: String)
  /// Finish that sign-in with the texted code.
  case finalizePhoneSignIn(pendingCredential: String, enrollmentID: String, verificationID: String, code: String)

  /// The v2 method, as in `accounts/mfaEnrollment:start`.
  public var method: String {
    let name = endpoint.name
    return name.range(of: "accounts/").map { String(name[$0.upperBound...]) } ?? name
  }

  /// The call it makes.
  package var endpoint: any EndpointDescription {
    switch self {
    case .startTOTPEnrollment, .startPhoneEnrollment: FirebaseAPI.startMfaEnrollment
    case .finalizeTOTPEnrollment, .finalizePhoneEnrollment: FirebaseAPI.finalizeMfaEnrollment
    case .withdraw: FirebaseAPI.withdrawMfa
    case .startPhoneSignIn: FirebaseAPI.startMfaSignIn
    case .finalizeTOTPSignIn, .finalizePhoneSignIn: FirebaseAPI.finalizeMfaSignIn
    }
  }

  public var description: String { "SecondFactorRequest(\(method))" }
  public var customMirror: Mirror { Mirror(self, children: ["method": method]) }
}
