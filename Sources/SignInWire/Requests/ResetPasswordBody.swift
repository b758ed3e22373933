/// `accounts:resetPassword`: checks an action code, and with `newPassword` uses a reset code.
///
/// - Concurrency: `Sendable` value.
package struct ResetPasswordBody: WireBody, TenantNaming {
  package var oobCode: String?
  package var newPassword: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case oobCode, newPassword, tenantId
  }
}
