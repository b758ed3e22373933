/// The reply of `accounts:resetPassword`: whose code it was, and its kind.
///
/// - Concurrency: `Sendable` value.
public struct ResetPasswordResponse: Sendable, Equatable {
  public var email: String?
  public var requestType: String?
  /// For a `VERIFY_AND_CHANGE_EMAIL` code, the email it will set.
  public var newEmail: String?

  public init(email: String?, requestType: String?, newEmail: String? = nil) {
    self.email = email
    self.requestType = requestType
    self.newEmail = newEmail
  }
}
