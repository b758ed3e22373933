/// The password policy of a project or tenant (`GET v2/passwordPolicy`).
///
/// - Concurrency: `Sendable` value.
package struct PasswordPolicyReply: WireBody, LenientValue {
  /// `OFF` (checked by the client only) or `ENFORCE`.
  @Lenient package var enforcementState: String?
  @Lenient package var customStrengthOptions: StrengthOptions?
  /// The characters that count as non-alphanumeric, when the policy names them.
  @Lenient package var allowedNonAlphanumericCharacters: [String]?
  @Lenient package var schemaVersion: Double?
  @Lenient package var forceUpgradeOnSignin: Bool?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case enforcementState, customStrengthOptions, allowedNonAlphanumericCharacters, schemaVersion,
      forceUpgradeOnSignin
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + StrengthOptions.fieldNames }

  /// What a password must have.
  ///
  /// - Concurrency: `Sendable` value.
  package struct StrengthOptions: WireBody, LenientValue {
    @Lenient package var minPasswordLength: Double?
    @Lenient package var maxPasswordLength: Double?
    @Lenient package var containsLowercaseCharacter: Bool?
    @Lenient package var containsUppercaseCharacter: Bool?
    @Lenient package var containsNumericCharacter: Bool?
    @Lenient package var containsNonAlphanumericCharacter: Bool?

    package init() {}

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case minPasswordLength, maxPasswordLength, containsLowercaseCharacter, containsUppercaseCharacter,
        containsNumericCharacter, containsNonAlphanumericCharacter
    }
  }
}

/// Whether reCAPTCHA protects sign-in, by provider (`GET v2/recaptchaConfig`), and the key a
/// client makes its tokens with when one is on.
///
/// - Concurrency: `Sendable` value.
package struct RecaptchaConfigReply: WireBody, LenientValue {
  @Lenient package var recaptchaEnforcementState: [EnforcementState]?
  /// `projects/P/keys/K`, only when some provider is `AUDIT` or `ENFORCE`.
  @Lenient package var recaptchaKey: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case recaptchaEnforcementState, recaptchaKey
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + EnforcementState.fieldNames }

  /// One provider's state.
  ///
  /// - Concurrency: `Sendable` value.
  package struct EnforcementState: WireBody, LenientValue {
    @Lenient package var provider: RecaptchaProvider?
    @Lenient package var enforcementState: RecaptchaEnforcementState?

    package init(provider: RecaptchaProvider? = nil, enforcementState: RecaptchaEnforcementState? = nil) {
      self.provider = provider
      self.enforcementState = enforcementState
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case provider, enforcementState
    }
  }

  /// The state of `provider`: `OFF` when the reply does not name it.
  package func state(of provider: RecaptchaProvider) -> RecaptchaEnforcementState {
    recaptchaEnforcementState?.first { $0.provider == provider }?.enforcementState ?? .off
  }

  /// The site key `K` of ``recaptchaKey`` (`projects/P/keys/K`), which the reCAPTCHA SDK is
  /// opened with.
  package var siteKey: String? { recaptchaKey.flatMap(Self.siteKey(of:)) }

  /// The site key `K` of a key resource name `projects/P/keys/K`; `nil` for another shape.
  package static func siteKey(of recaptchaKey: String) -> String? {
    let parts = recaptchaKey.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "projects", parts[2] == "keys", !parts[3].isEmpty else { return nil }
    return String(parts[3])
  }
}
