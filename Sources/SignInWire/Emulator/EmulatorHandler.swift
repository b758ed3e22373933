/// What a client's SDK puts in the URL of the emulator's hosted handler
/// (`GET /emulator/auth/handler?…`, Firebase's `https://AUTH_DOMAIN/__/auth/handler`), and what the
/// handler page's forms add when the person picks a fake account (`…/handler/choose`).
///
/// Web SDKs send `appName`, `authType` (`signInViaPopup`, `signInViaRedirect`) and
/// `redirectUrl`; FirebaseAuth iOS sends `ibi`, `clientId` or `appId`, and `authType`
/// `signInWithRedirect`; Android sends `apn`. `scopes` is comma-separated and
/// `customParameters` is a JSON object; the emulator shows neither to the provider it stands in
/// for.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorHandlerQuery: WireBody {
  package var apiKey: String?
  package var appName: String?
  package var authType: String?
  package var providerId: String?
  package var redirectUrl: String?
  package var eventId: String?
  package var sessionId: String?
  package var scopes: String?
  package var customParameters: String?
  package var v: String?
  package var hl: String?
  /// The tenant (`tid`; some callers spell it `tenantId`).
  package var tid: String?
  package var tenantId: String?
  package var clientId: String?
  package var appId: String?
  /// Android's package name.
  package var apn: String?
  /// iOS's bundle id.
  package var ibi: String?
  /// The fake account picked: its id at the provider, one the project has seen.
  package var rawId: String?
  /// A new fake account's profile.
  package var email: String?
  package var displayName: String?
  package var photoUrl: String?
  package var screenName: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case apiKey, appName, authType, providerId, redirectUrl, eventId, sessionId, scopes, customParameters, v, hl
    case tid, tenantId, clientId, appId, apn, ibi
    case rawId, email, displayName, photoUrl, screenName
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }

  /// The fields the client's SDK sent, which the handler page carries through its forms.
  package static let requestKeys: [CodingKeys] = [
    .apiKey, .appName, .authType, .providerId, .redirectUrl, .eventId, .sessionId, .scopes, .customParameters, .v,
    .hl, .tid, .tenantId, .clientId, .appId, .apn, .ibi,
  ]

  /// The tenant named, in either spelling.
  package var tenant: String? { (tid ?? tenantId).flatMap { $0.isEmpty ? nil : $0 } }

  /// The value of `key`.
  package subscript(key: CodingKeys) -> String? {
    switch key {
    case .apiKey: apiKey
    case .appName: appName
    case .authType: authType
    case .providerId: providerId
    case .redirectUrl: redirectUrl
    case .eventId: eventId
    case .sessionId: sessionId
    case .scopes: scopes
    case .customParameters: customParameters
    case .v: v
    case .hl: hl
    case .tid: tid
    case .tenantId: tenantId
    case .clientId: clientId
    case .appId: appId
    case .apn: apn
    case .ibi: ibi
    case .rawId: rawId
    case .email: email
    case .displayName: displayName
    case .photoUrl: photoUrl
    case .screenName: screenName
    }
  }
}

/// A page the emulator serves to a browser: HTML, or a redirect (`303 See Other` to
/// `location`).
///
/// - Concurrency: `Sendable` value.
package struct EmulatorWebPage: WireBody {
  @Lenient package var html: String?
  @Lenient package var location: String?
  @Lenient package var status: Double?

  package init(html: String, status: Int = 200) {
    self.html = html
    self.status = Double(status)
  }

  package init(redirectTo location: String) {
    self.location = location
    self.status = 303
  }

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case html, location, status
  }
}

/// The accounts page's query: which project and tenant it shows.
///
/// - Concurrency: `Sendable` value.
package struct EmulatorAccountsPageQuery: WireBody {
  package var project: String?
  package var tenant: String?

  package init() {}

  package enum CodingKeys: String, CodingKey, CaseIterable {
    case project, tenant
  }

  package static var queryKeys: [CodingKeys] { CodingKeys.allCases }
}
