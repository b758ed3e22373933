/// The emulator's readiness probe (`GET /`): `{"authEmulator": {"ready": true}}`.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorReadyReply: WireBody {
  @Lenient package var authEmulator: Status?

  package init(ready: Bool, accountsPage: String? = nil) {
    authEmulator = Status(ready: ready)
    authEmulator?.accountsPage = accountsPage
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case authEmulator
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Status.fieldNames }

  /// Whether the server answers, and that it is SignInKit's.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Status: WireBody, LenientValue {
    @Lenient package var ready: Bool?
    @Lenient package var signinkit: Bool?
    /// Where a person sees the accounts, codes and emails in a browser.
    @Lenient package var accountsPage: String?

    init(ready: Bool) {
      self.ready = ready
      signinkit = true
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case ready, signinkit, accountsPage
    }
  }
}
