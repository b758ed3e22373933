/// A kind of second factor, as an ID token's `firebase.sign_in_second_factor` names it.
///
/// - Concurrency: `Sendable` value.
package enum SecondFactorKind: String, Sendable, Codable, CaseIterable {
  /// A code texted to a phone number (`phoneInfo` in an enrollment).
  case phone
  /// A time-based one-time password from an authenticator app (`totpInfo`).
  case totp

  /// The provider a project's or tenant's `mfaConfig.enabledProviders` names for it.
  package var configuredProvider: String? { self == .phone ? "PHONE_SMS" : nil }
}
