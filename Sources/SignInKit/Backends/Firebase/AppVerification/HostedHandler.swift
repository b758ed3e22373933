import Foundation

/// The project's hosted handler (`https://AUTH_DOMAIN/__/auth/handler`), which runs flows a
/// native app cannot run itself in the system web sheet and sends the answer back to the app's
/// URL scheme as `SCHEME://firebaseauth/link?deep_link_id=…`: the URLs FirebaseAuth builds and
/// reads, written once.
///
/// - Concurrency: stateless; any isolation.
enum HostedHandler {
  /// The page that shows reCAPTCHA for an app verification (`authType=verifyApp`).
  ///
  /// - Parameters:
  ///   - eventID: a fresh random id the callback must carry back.
  ///   - appCheckToken: sent in the fragment (`#fac=…`), where the page reads it.
  static func verifyAppURL(
    authDomain: String, apiKey: String, bundleID: String?, appID: String?, languageCode: String?, eventID: String,
    appCheckToken: String?
  ) -> URL? {
    var components = URLComponents()
    components.scheme = authDomain.hasPrefix("127.0.0.1") || authDomain.hasPrefix("localhost") ? "http" : "https"
    components.host = authDomain.split(separator: ":").first.map(String.init)
    components.port = authDomain.split(separator: ":").dropFirst().first.flatMap { Int($0) }
    components.path = "/__/auth/handler"
    var items = [
      URLQueryItem(name: "apiKey", value: apiKey), URLQueryItem(name: "authType", value: verifyApp),
      URLQueryItem(name: "ibi", value: bundleID ?? ""), URLQueryItem(name: "v", value: FirebaseBackend.clientVersion),
      URLQueryItem(name: "eventId", value: eventID),
    ]
    if let appID { items.append(URLQueryItem(name: "appId", value: appID)) }
    if let languageCode { items.append(URLQueryItem(name: "hl", value: languageCode)) }
    components.queryItems = items
    if let appCheckToken { components.fragment = "fac=\(appCheckToken)" }
    return components.url
  }

  /// The flow of an app verification.
  static let verifyApp = "verifyApp"

  /// The app's URL scheme for the handler's answers: `app-` and the Firebase app id with its
  /// colons as dashes (`app-1-1234-ios-abcd`), as FirebaseAuth registers it.
  static func callbackScheme(appID: String) -> String {
    "app-" + appID.replacingOccurrences(of: ":", with: "-")
  }

  /// The reCAPTCHA token in the handler's answer `callback`, for the verification `eventID`.
  ///
  /// - Throws: ``AuthError/Code/appVerificationFailed`` for an answer to another flow or
  ///   event, or one without a token; the handler's own error when it sent one.
  static func recaptchaToken(from callback: URL, eventID: String, callbackScheme: String) throws -> String {
    let answer = URLComponents(url: callback, resolvingAgainstBaseURL: false)
    guard answer?.scheme?.lowercased() == callbackScheme.lowercased(), answer?.host == "firebaseauth",
      answer?.path == "/link",
      let deepLink = answer?.queryItems?.first(where: { $0.name == "deep_link_id" })?.value,
      let inner = URLComponents(string: deepLink)
    else {
      throw AuthError(
        .appVerificationFailed, "The reCAPTCHA page answered at an unexpected address; nothing was sent. Try again.")
    }
    let fields = Dictionary((inner.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    guard fields["authType"] == verifyApp, fields["eventId"] == eventID else {
      throw AuthError(
        .appVerificationFailed, "The reCAPTCHA page answered for another verification; nothing was sent. Try again.")
    }
    if let token = fields["recaptchaToken"], !token.isEmpty { return token }
    if let text = fields["firebaseError"],
      let error = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
      let message = error["message"] as? String
    {
      throw AuthError(.appVerificationFailed, "The reCAPTCHA page refused: \(message)")
    }
    throw AuthError(.appVerificationFailed, "The reCAPTCHA page answered without a token. Try again.")
  }
}
