/// `accounts:lookup`: the account of `idToken`; or, for an administrator, the accounts with any
/// of the uids, emails, phone numbers or provider identities.
///
/// - Concurrency: `Sendable` value.
package struct LookupBody: WireBody, TenantNaming {
  package var idToken: String?
  package var localId: [String]?
  package var email: [String]?
  package var phoneNumber: [String]?
  package var federatedUserId: [FederatedUserIdentifier]?
  package var tenantId: String?
  package var targetProjectId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case idToken, localId, email, phoneNumber, federatedUserId, tenantId, targetProjectId
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + FederatedUserIdentifier.fieldNames
  }

  /// A user's identity at a provider, as `get_users` sends a `ProviderIdentifier`.
  ///
  /// - Concurrency: `Sendable` value.
  package struct FederatedUserIdentifier: WireBody {
    package var providerId: String?
    package var rawId: String?

    package init(providerId: String? = nil, rawId: String? = nil) {
      self.providerId = providerId
      self.rawId = rawId
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case providerId, rawId
    }
  }
}
