/// `accounts:createAuthUri`, which FirebaseAuth's `fetchSignInMethods(forEmail:)` sends: the
/// email (`identifier`) and the page the app continues on.
///
/// - Concurrency: `Sendable` value.
package struct CreateAuthUriBody: WireBody, TenantNaming {
  package var identifier: String?
  package var continueUri: String?
  package var providerId: String?
  package var sessionId: String?
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case identifier, continueUri, providerId, sessionId, tenantId
  }
}
