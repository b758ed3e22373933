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

/// Whether reCAPTCHA protects sign-in, by provider (`GET v2/recaptchaConfig`).
///
/// - Concurrency: `Sendable` value.
package struct RecaptchaConfigReply: WireBody, LenientValue {
  @Lenient package var recaptchaEnforcementState: [EnforcementState]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case recaptchaEnforcementState
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + EnforcementState.fieldNames }

  /// One provider's state: `EMAIL_PASSWORD_PROVIDER` or `PHONE_PROVIDER`, `OFF`, `AUDIT` or
  /// `ENFORCE`.
  ///
  /// - Concurrency: `Sendable` value.
  package struct EnforcementState: WireBody, LenientValue {
    @Lenient package var provider: String?
    @Lenient package var enforcementState: String?

    package init(provider: String? = nil, enforcementState: String? = nil) {
      self.provider = provider
      self.enforcementState = enforcementState
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case provider, enforcementState
    }
  }
}
