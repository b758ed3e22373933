/// `accounts:sendOobCode`: which email to send (`requestType`), to whom, and where its link leads.
///
/// - Concurrency: `Sendable` value.
package struct SendOobCodeBody: WireBody {
  package var requestType: String?
  package var email: String?
  package var idToken: String?
  package var newEmail: String?
  package var continueUrl: String?
  package var canHandleCodeInApp: Bool?
  package var iOSBundleId: String?
  package var androidPackageName: String?
  package var linkDomain: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case requestType, email, idToken, newEmail, continueUrl, canHandleCodeInApp, iOSBundleId, androidPackageName,
      linkDomain
  }
}
