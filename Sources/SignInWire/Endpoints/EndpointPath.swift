/// One path an endpoint answers on: the service it belongs to, its template under that service,
/// and who may call it there.
///
/// - Concurrency: `Sendable` value.
package struct EndpointPath: Sendable, Hashable {
  /// The Google service a path belongs to, and where that service is reached.
  ///
  /// - Concurrency: `Sendable` value.
  package enum Service: String, Sendable, Hashable, CaseIterable {
    /// Identity Toolkit v1 and v2: `https://identitytoolkit.googleapis.com/…`.
    case identityToolkit = "identitytoolkit.googleapis.com/"
    /// Secure Token: `https://securetoken.googleapis.com/…`.
    case secureToken = "securetoken.googleapis.com/"
    /// The legacy v3 relying-party API, which FirebaseAuth's iOS SDK still calls:
    /// `https://www.googleapis.com/identitytoolkit/v3/relyingparty/…`.
    case relyingParty = "www.googleapis.com/identitytoolkit/v3/relyingparty/"
    /// The Firebase emulator's own routes (`/emulator/…`, the readiness probe): no production
    /// host serves them.
    case emulator = ""

    /// Where the service's paths start, under `https://` in production or `http://HOST/` on the
    /// emulator (which puts the production host in the path).
    package var prefix: String { rawValue }
  }

  /// Who may call a path: any of these will do.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Callers: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// A client app, with the project's API key (`key=` or `X-Goog-Api-Key`).
    package static let apiKey = Callers(rawValue: 1)
    /// A signed-in user: an API key, and the user's ID token in the body.
    package static let idToken = Callers(rawValue: 2)
    /// An administrator: `Authorization: Bearer` with an OAuth token (`owner` on the emulator).
    package static let admin = Callers(rawValue: 4)
    /// Anyone: the emulator's own routes take no credential.
    package static let anyone = Callers(rawValue: 8)

    /// Whether an API key is one of the credentials that will do.
    package var takesAPIKey: Bool { !isDisjoint(with: [.apiKey, .idToken]) }
    /// Whether only an administrator's credential will do.
    package var needsAdministrator: Bool { !takesAPIKey && !contains(.anyone) }
  }

  package let service: Service
  package let template: PathTemplate
  package let callers: Callers
  /// Why Google's discovery documents do not list this path, when they do not (a call only the
  /// v3 relying-party API of FirebaseAuth's iOS SDK makes).
  package let unlistedReason: String?

  package init(_ service: Service, _ template: String, _ callers: Callers, unlisted reason: String? = nil) {
    self.service = service
    self.template = PathTemplate(template)
    self.callers = callers
    unlistedReason = reason
  }

  /// The path on the emulator, which puts the production host first:
  /// `/identitytoolkit.googleapis.com/v1/accounts:signUp`.
  package var emulatorTemplate: PathTemplate { PathTemplate("/" + service.prefix + template.description) }

  /// The path in production, or `nil` for the emulator's own routes:
  /// `https://identitytoolkit.googleapis.com/v1/accounts:signUp`.
  package func productionURL(_ values: [String: String] = [:]) -> String? {
    service == .emulator ? nil : "https://" + service.prefix + template.filled(values)
  }

  /// The path on an emulator at `host` (`127.0.0.1:9099`).
  package func emulatorURL(host: String, _ values: [String: String] = [:]) -> String {
    "http://\(host)/" + service.prefix + template.filled(values)
  }
}
