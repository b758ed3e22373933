/// The emulator's project settings (`/emulator/v1/projects/PROJECT/config`): read with `GET`,
/// changed with `PATCH` (a field left out is left as it is).
///
/// - Concurrency: `Sendable` value.
package struct EmulatorProjectConfig: WireBody {
  package var signIn: SignInSettings?
  package var emailPrivacyConfig: EmailPrivacy?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case signIn, emailPrivacyConfig
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + SignInSettings.fieldNames + EmailPrivacy.fieldNames
  }

  /// Whether several accounts may share an email.
  ///
  /// - Concurrency: `Sendable` value.
  package struct SignInSettings: WireBody {
    package var allowDuplicateEmails: Bool?

    package init(allowDuplicateEmails: Bool? = nil) {
      self.allowDuplicateEmails = allowDuplicateEmails
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case allowDuplicateEmails
    }
  }

  /// Email enumeration protection.
  ///
  /// - Concurrency: `Sendable` value.
  package struct EmailPrivacy: WireBody {
    package var enableImprovedEmailPrivacy: Bool?

    package init(enableImprovedEmailPrivacy: Bool? = nil) {
      self.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case enableImprovedEmailPrivacy
    }
  }
}
