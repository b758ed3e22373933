/// `accounts:resetPassword`: without `newPassword` it checks the code; with it, it confirms.
///
/// - Concurrency: `Sendable` value; its description never contains the password or code.
public struct ResetPasswordRequest: Sendable, Equatable, CustomStringConvertible,
  CustomReflectable
{
  public var oobCode: String
  public var newPassword: String?

  public init(oobCode: String, newPassword: String? = nil) {
    self.oobCode = oobCode
    self.newPassword = newPassword
  }

  public var description: String { "ResetPasswordRequest(confirming: \(newPassword != nil))" }
  public var customMirror: Mirror { Mirror(self, children: []) }
}
