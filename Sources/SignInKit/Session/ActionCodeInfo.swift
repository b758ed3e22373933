import SignInWire

/// What an emailed action code is for and for whom, as ``Auth/checkActionCode(_:)`` reads it
/// without using it up (FirebaseAuth's `ActionCodeInfo`).
///
/// - Concurrency: `Sendable` value.
public struct ActionCodeInfo: Sendable, Equatable {
  /// The action a code performs.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Operation: Sendable, Equatable {
    /// Set a new password (`PASSWORD_RESET`).
    case passwordReset
    /// Verify the account's email (`VERIFY_EMAIL`).
    case verifyEmail
    /// Verify a new email, then make it the account's (`VERIFY_AND_CHANGE_EMAIL`).
    case verifyAndChangeEmail
    /// Sign in with an email link (`EMAIL_SIGNIN`).
    case emailSignIn
    /// Put back an email that was changed (`RECOVER_EMAIL`).
    case recoverEmail
    /// A kind this version does not know, by its wire name.
    case other(String)

    /// The wire name of the operation, its `requestType` (`PASSWORD_RESET`, `EMAIL_SIGNIN`, …).
    public var requestType: String {
      switch self {
      case .passwordReset: OobRequestType.passwordReset.rawValue
      case .verifyEmail: OobRequestType.verifyEmail.rawValue
      case .verifyAndChangeEmail: OobRequestType.verifyAndChangeEmail.rawValue
      case .emailSignIn: OobRequestType.emailSignIn.rawValue
      case .recoverEmail: OobRequestType.recoverEmail.rawValue
      case .other(let name): name
      }
    }

    /// The operation a wire `requestType` names.
    public init(requestType: String) {
      switch OobRequestType(rawValue: requestType) {
      case .passwordReset: self = .passwordReset
      case .verifyEmail: self = .verifyEmail
      case .verifyAndChangeEmail: self = .verifyAndChangeEmail
      case .emailSignIn: self = .emailSignIn
      case .recoverEmail: self = .recoverEmail
      case nil: self = .other(requestType)
      }
    }
  }

  public var operation: Operation
  /// The address the code was sent to: the account's email, or the sign-in link's.
  public var email: String?
  /// For ``Operation/verifyAndChangeEmail``, the email the account will have.
  public var newEmail: String?

  public init(operation: Operation, email: String?, newEmail: String? = nil) {
    self.operation = operation
    self.email = email
    self.newEmail = newEmail
  }
}
