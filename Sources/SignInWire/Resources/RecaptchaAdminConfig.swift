/// How a project or tenant uses reCAPTCHA Enterprise, as the v2 admin API sets it
/// (`recaptchaConfig` of `projects/P/config` and of `projects/P/tenants/T`).
///
/// - Concurrency: `Sendable` value.
package struct RecaptchaAdminConfig: WireBody {
  package var emailPasswordEnforcementState: RecaptchaEnforcementState?
  package var phoneEnforcementState: RecaptchaEnforcementState?
  /// The keys clients make tokens with, one per platform.
  package var recaptchaKeys: [Key]?

  package init(
    emailPasswordEnforcementState: RecaptchaEnforcementState? = nil,
    phoneEnforcementState: RecaptchaEnforcementState? = nil
  ) {
    self.emailPasswordEnforcementState = emailPasswordEnforcementState
    self.phoneEnforcementState = phoneEnforcementState
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case emailPasswordEnforcementState, phoneEnforcementState, recaptchaKeys
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Key.fieldNames }

  /// The state set for `provider`, if any.
  package func state(of provider: RecaptchaProvider) -> RecaptchaEnforcementState? {
    switch provider {
    case .emailPassword: emailPasswordEnforcementState
    case .phone: phoneEnforcementState
    }
  }

  /// The key of this config for a client of `clientType` (`CLIENT_TYPE_IOS` takes the key of
  /// type `IOS`), if it names one.
  package func key(for clientType: String) -> String? {
    let platform = Key.platform(ofClientType: clientType)
    return recaptchaKeys?.first { $0.type == platform }?.key
  }

  /// A reCAPTCHA Enterprise key (`projects/P/keys/K`) and the platform it is for (`IOS`, `WEB`,
  /// `ANDROID`).
  ///
  /// - Concurrency: `Sendable` value.
  package struct Key: WireBody {
    package var key: String?
    package var type: String?

    package init(key: String? = nil, type: String? = nil) {
      self.key = key
      self.type = type
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case key, type
    }

    /// The `type` of the keys for a client of `clientType` (`CLIENT_TYPE_IOS` → `IOS`).
    package static func platform(ofClientType clientType: String) -> String {
      clientType.hasPrefix("CLIENT_TYPE_") ? String(clientType.dropFirst("CLIENT_TYPE_".count)) : clientType
    }
  }
}
