/// An Identity Platform tenant, as the v2 admin API describes it (`projects/P/tenants/T`): the
/// body of a create or an update (with `updateMask` in the query) and the reply of each.
///
/// - Concurrency: `Sendable` value.
package struct Tenant: WireBody {
  /// `projects/P/tenants/T`.
  package var name: String?
  /// The tenant's id: the emulator writes it beside `name`.
  package var tenantId: String?
  package var displayName: String?
  package var allowPasswordSignup: Bool?
  package var enableEmailLinkSignin: Bool?
  package var enableAnonymousUser: Bool?
  package var disableAuth: Bool?
  package var mfaConfig: MultiFactorAuthConfig?
  package var testPhoneNumbers: [String: String]?
  package var recaptchaConfig: RecaptchaAdminConfig?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, tenantId, displayName, allowPasswordSignup, enableEmailLinkSignin, enableAnonymousUser, disableAuth,
      mfaConfig, testPhoneNumbers, recaptchaConfig
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + MultiFactorAuthConfig.fieldNames
      + MultiFactorAuthConfig.ProviderConfig.fieldNames + RecaptchaAdminConfig.fieldNames
  }

  package static var unlistedFields: [String: String] {
    ["tenantId": "the Firebase emulator writes the id beside name; Identity Platform's clients read it from name"]
  }

  /// Which second factors a project or tenant offers.
  ///
  /// - Concurrency: `Sendable` value.
  package struct MultiFactorAuthConfig: WireBody {
    /// `DISABLED`, `ENABLED` or `MANDATORY`.
    package var state: String?
    /// `PHONE_SMS` when SMS codes are on.
    package var enabledProviders: [String]?
    package var providerConfigs: [ProviderConfig]?

    package init(state: String? = nil, enabledProviders: [String]? = nil) {
      self.state = state
      self.enabledProviders = enabledProviders
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case state, enabledProviders, providerConfigs
    }

    /// One second factor's settings (TOTP's).
    ///
    /// - Concurrency: `Sendable` value.
    package struct ProviderConfig: WireBody {
      package var state: String?
      package var totpProviderConfig: TotpProviderConfig?

      package enum CodingKeys: String, CodingKey, CaseIterable {
        case state, totpProviderConfig
      }

      /// How many intervals either side of now a TOTP code is accepted for.
      ///
      /// - Concurrency: `Sendable` value.
      package struct TotpProviderConfig: WireBody {
        package var adjacentIntervals: Int?

        package enum CodingKeys: String, CodingKey, CaseIterable {
          case adjacentIntervals
        }
      }
    }
  }
}

/// A page of tenants.
///
/// - Concurrency: `Sendable` value.
package struct TenantList: WireBody {
  package var tenants: [Tenant]?
  package var nextPageToken: String?

  package init(tenants: [Tenant], nextPageToken: String?) {
    self.tenants = tenants
    self.nextPageToken = nextPageToken
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case tenants, nextPageToken
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Tenant.fieldNames }
}
