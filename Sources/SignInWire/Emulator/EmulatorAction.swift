/// What an emailed link carries to the emulator's action page (`GET /emulator/action?…`): the
/// action's `mode`, its `oobCode`, and for a password reset optionally the `newPassword`.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorActionQuery: WireBody {
  package var mode: String?
  package var oobCode: String?
  package var newPassword: String?
  package var continueUrl: String?
  package var lang: String?
  package var apiKey: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case mode, lang, oobCode, apiKey, continueUrl, newPassword
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }
}

/// The action page's answer: plain text for the person who opened the link.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorActionPage: WireBody {
  @Lenient package var text: String?
  /// The HTTP status: 400 when the link cannot be used.
  @Lenient package var status: Double?

  package init(_ text: String, status: Int = 200) {
    self.text = text
    self.status = Double(status)
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case text, status
  }
}
