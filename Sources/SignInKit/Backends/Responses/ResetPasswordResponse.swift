/// The reply of `accounts:resetPassword`: whose code it was, and its kind.
///
/// - Concurrency: `Sendable` value.
public struct ResetPasswordResponse: Sendable, Equatable {
  public var email: String?
  public var requestType: String?

  public init(email: String?, requestType: String?) {
    self.email = email
    self.requestType = requestType
  }
}
