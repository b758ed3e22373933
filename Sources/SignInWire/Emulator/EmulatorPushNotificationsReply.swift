/// The emulator's APNs outbox (`GET /emulator/v1/projects/PROJECT/pushNotifications`): each
/// silent push it would have sent to an iOS app's device token after `verifyIosClient`, with the
/// receipt and the secret the push carries, oldest first. A test delivers them to the app as
/// APNs would.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorPushNotificationsReply: WireBody {
  @Lenient package var pushNotifications: [Push]?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case pushNotifications
  }

  package static var fieldNames: [String] { CodingKeys.allCases.map(\.stringValue) + Push.fieldNames }

  /// One silent push: the device token it went to, and its receipt and secret.
  ///
  /// - Concurrency: `Sendable` value.
  package struct Push: WireBody, LenientValue {
    @Lenient package var appToken: String?
    @Lenient package var receipt: String?
    @Lenient package var secret: String?

    package init(appToken: String, receipt: String, secret: String) {
      self.appToken = appToken
      self.receipt = receipt
      self.secret = secret
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
      case appToken, receipt, secret
    }
  }
}
