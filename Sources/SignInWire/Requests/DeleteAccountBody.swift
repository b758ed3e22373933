/// `accounts:delete`: the account `idToken` names, or for an administrator `localId`.
///
/// - Concurrency: `Sendable` value.
package struct DeleteAccountBody: WireBody, TenantNaming {
  package var idToken: String?
  package var localId: String?
  package var tenantId: String?
  package var targetProjectId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, localId, tenantId, targetProjectId
  }
}
