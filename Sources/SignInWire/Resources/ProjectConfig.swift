/// A project's settings, as the v2 admin API describes them (`projects/P/config`): the part
/// `signin serve` keeps, which is how the project uses reCAPTCHA Enterprise.
///
/// - Concurrency: `Sendable` value.
package struct ProjectConfig: WireBody {
  /// `projects/P/config`.
  package var name: String?
  package var recaptchaConfig: RecaptchaAdminConfig?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, recaptchaConfig
  }

  package static var fieldNames: [String] {
    CodingKeys.allCases.map(\.stringValue) + RecaptchaAdminConfig.fieldNames
  }
}
