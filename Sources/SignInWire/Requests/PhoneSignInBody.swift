/// `accounts:signInWithPhoneNumber` (v3 `verifyPhoneNumber`): the code texted with
/// `sessionInfo`; with `idToken`, links the number to that account.
///
/// - Concurrency: `Sendable` value.
package struct PhoneSignInBody: WireBody, TenantNaming {
  package var sessionInfo: String?
  package var code: String?
  package var idToken: String?
  package var phoneNumber: String?
  package var temporaryProof: String?
  /// What the code is for when `idToken` is sent: linking a number, or replacing the user's.
  package var operation: PhoneOperation?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case sessionInfo, code, idToken, phoneNumber, temporaryProof, operation, tenantId
  }
}
