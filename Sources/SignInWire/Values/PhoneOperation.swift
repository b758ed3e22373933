/// What a texted code proves in `accounts:signInWithPhoneNumber` (`operation`): a sign-in or
/// sign-up, a reauthentication, a new number for the signed-in user, or a number linked to them.
///
/// - Concurrency: `Sendable` value.
package enum PhoneOperation: String, WireEnum {
  case signUpOrIn = "SIGN_UP_OR_IN"
  case reauth = "REAUTH"
  case update = "UPDATE"
  case link = "LINK"

  package var protoNumber: Int {
    switch self {
    case .signUpOrIn: 1
    case .reauth: 2
    case .update: 3
    case .link: 4
    }
  }
}
