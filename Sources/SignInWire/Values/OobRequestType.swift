/// What an out-of-band email does (`requestType` of `accounts:sendOobCode`, and of the codes
/// `accounts:resetPassword` reads back).
///
/// - Concurrency: `Sendable` value.
package enum OobRequestType: String, WireEnum {
  case passwordReset = "PASSWORD_RESET"
  case verifyEmail = "VERIFY_EMAIL"
  case recoverEmail = "RECOVER_EMAIL"
  case emailSignIn = "EMAIL_SIGNIN"
  case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"

  package var protoNumber: Int {
    switch self {
    case .passwordReset: 1
    case .verifyEmail: 4
    case .recoverEmail: 5
    case .emailSignIn: 6
    case .verifyAndChangeEmail: 7
    }
  }

  /// The `mode` of the emulator's action link for a code of this kind (`resetPassword`).
  package var actionMode: String {
    switch self {
    case .passwordReset: "resetPassword"
    case .verifyEmail: "verifyEmail"
    case .recoverEmail: "recoverEmail"
    case .emailSignIn: "signIn"
    case .verifyAndChangeEmail: "verifyAndChangeEmail"
    }
  }

  /// The kind an action link's `mode` stands for.
  package init?(actionMode: String) {
    guard let kind = Self.allCases.first(where: { $0.actionMode == actionMode }) else { return nil }
    self = kind
  }
}
