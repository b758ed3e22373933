/// `GET v2/passwordPolicy`: the password policy a client SDK checks new passwords against, for
/// the project or `tenantId`.
///
/// - Concurrency: `Sendable` value.
package struct PasswordPolicyQuery: WireBody, TenantNaming {
  package var tenantId: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case tenantId
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }
}

/// `GET v2/recaptchaConfig`: whether reCAPTCHA protects sign-in, which the JS SDK asks at start.
///
/// - Concurrency: `Sendable` value.
package struct RecaptchaConfigQuery: WireBody, TenantNaming {
  package var tenantId: String?
  package var clientType: String?
  package var version: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case tenantId, clientType, version
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }
}
