/// `accounts:resetPassword`: checks an action code, and with `newPassword` uses a reset code.
///
/// - Concurrency: `Sendable` value.
package struct ResetPasswordBody: WireBody {
  package var oobCode: String?
  package var newPassword: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case oobCode, newPassword
  }
}
