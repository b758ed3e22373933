import Foundation
import SignInCrypto
import SignInWire

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

  /// The reCAPTCHA token in the handler's answer `callback`, for the verification `eventID`.
  ///
  /// - Throws: ``AuthError/Code/appVerificationFailed`` for an answer to another flow or
  ///   event, or one without a token; the handler's own error when it sent one.
  static func recaptchaToken(from callback: URL, eventID: String, callbackScheme: String) throws -> String {
    let fields: [String: String]
    do {
      fields = try answer(in: callback, callbackScheme: callbackScheme)
    } catch {
      throw AuthError(
        .appVerificationFailed, "The reCAPTCHA page answered at an unexpected address; nothing was sent. Try again.")
    }
    guard fields[HandlerAnswerField.authType.rawValue] == verifyApp,
      fields[HandlerAnswerField.eventID.rawValue] == eventID
    else {
      throw AuthError(
        .appVerificationFailed, "The reCAPTCHA page answered for another verification; nothing was sent. Try again.")
    }
    if let token = fields[HandlerAnswerField.recaptchaToken.rawValue], !token.isEmpty { return token }
    if let message = errorMessage(in: fields) {
      throw AuthError(.appVerificationFailed, "The reCAPTCHA page refused: \(message)")
    }
    throw AuthError(.appVerificationFailed, "The reCAPTCHA page answered without a token. Try again.")
  }

  // MARK: - Signing in through the handler

  /// Where the handler sends its answer.
  enum AnswerTarget: Equatable {
    /// The app's URL scheme, as `SCHEME://firebaseauth/link?deep_link_id=…` (FirebaseAuth iOS).
    case appScheme
    /// A loopback listener, with the answer's fields in its query (`signin serve` only).
    case loopback(URL)
  }

  /// The flow of a sign-in through the handler, as FirebaseAuth iOS names it.
  static let signInWithRedirect = "signInWithRedirect"

  /// The handler page for a sign-in with `configuration`'s provider, with the query FirebaseAuth
  /// iOS builds (`apiKey`, `authType`, `ibi`, `sessionId` as the SHA-256 hex of `sessionID`, `v`,
  /// `eventId`, `providerId`, `clientId` or `appId`, `tid`, comma-separated `scopes`,
  /// `customParameters` as JSON, `hl`), `+` written `%2B`; a loopback answer replaces the app's
  /// ids with `appName` and `redirectUrl`.
  static func signInURL(
    page: URL, configuration: OAuthProvider.Configuration, eventID: String, sessionID: String, answer: AnswerTarget
  ) -> URL {
    let site = configuration.site
    var items = [URLQueryItem(name: "apiKey", value: site.apiKey)]
    switch answer {
    case .appScheme:
      items += [
        URLQueryItem(name: "authType", value: signInWithRedirect),
        URLQueryItem(name: "ibi", value: site.bundleID ?? ""),
      ]
    case .loopback(let redirect):
      items += [
        URLQueryItem(name: "appName", value: "[DEFAULT]"), URLQueryItem(name: "authType", value: signInWithRedirect),
        URLQueryItem(name: "redirectUrl", value: redirect.absoluteString),
      ]
    }
    items += [
      URLQueryItem(name: "sessionId", value: Crypto.sha256Hex(Array(sessionID.utf8))),
      URLQueryItem(name: "v", value: FirebaseBackend.clientVersion), URLQueryItem(name: "eventId", value: eventID),
      URLQueryItem(name: "providerId", value: configuration.providerID.rawValue),
    ]
    if answer == .appScheme {
      if let clientID = site.clientID, !clientID.isEmpty {
        items.append(URLQueryItem(name: "clientId", value: clientID))
      } else if let appID = site.appID {
        items.append(URLQueryItem(name: "appId", value: appID))
      }
    }
    if let tenant = configuration.tenantID { items.append(URLQueryItem(name: "tid", value: tenant)) }
    if !configuration.scopes.isEmpty {
      items.append(URLQueryItem(name: "scopes", value: configuration.scopes.joined(separator: ",")))
    }
    if !configuration.customParameters.isEmpty {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      let json = (try? encoder.encode(configuration.customParameters)).map { String(decoding: $0, as: UTF8.self) }
      items.append(URLQueryItem(name: "customParameters", value: json))
    }
    if let language = site.languageCode { items.append(URLQueryItem(name: "hl", value: language)) }
    var components = URLComponents(url: page, resolvingAgainstBaseURL: false) ?? URLComponents()
    components.queryItems = items
    components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
    return components.url ?? page
  }

  /// The fields of the handler's answer at the app's scheme: the query of its `deep_link_id`.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` for another scheme, host or path, or no
  ///   `deep_link_id`.
  static func answer(in callback: URL, callbackScheme: String) throws -> [String: String] {
    let outer = URLComponents(url: callback, resolvingAgainstBaseURL: false)
    guard outer?.scheme?.lowercased() == callbackScheme.lowercased(), outer?.host == HandlerCallbackScheme.host,
      outer?.path == "/link",
      let deepLink = outer?.queryItems?.first(where: { $0.name == HandlerAnswerField.deepLink.rawValue })?.value,
      let inner = URLComponents(string: deepLink)
    else {
      throw AuthError(
        .invalidResponse, "The sign-in page answered at an unexpected address; nothing changed. Sign in again.")
    }
    return Dictionary((inner.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
  }

  /// The handler's message in an answer's `firebaseError` (`{"code":…,"message":…}`).
  static func errorMessage(in fields: [String: String]) -> String? {
    guard let text = fields[HandlerAnswerField.firebaseError.rawValue] else { return nil }
    let error = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    return (error?["message"] as? String) ?? (error?["code"] as? String) ?? "an error it did not describe"
  }

  /// The URL the handler's page finished on (`link`) in its answer to the sign-in `eventID`.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` for an answer to another sign-in or without a
  ///   link; ``AuthError/Code/invalidCredential`` with the handler's error when it sent one.
  static func signInLink(from fields: [String: String], eventID: String, provider: ProviderID) throws -> String {
    if let message = errorMessage(in: fields) {
      throw AuthError(.invalidCredential, "The \(provider) sign-in page refused: \(message)")
    }
    guard fields[HandlerAnswerField.eventID.rawValue] == eventID,
      fields[HandlerAnswerField.authType.rawValue] == signInWithRedirect
    else {
      throw AuthError(
        .invalidResponse, "The \(provider) sign-in page answered for another sign-in; nothing changed. Sign in again.")
    }
    guard let link = fields[HandlerAnswerField.link.rawValue], !link.isEmpty else {
      throw AuthError(
        .invalidResponse,
        "The \(provider) sign-in page came back without its answer. Only signin serve's handler answers a loopback "
          + "address; against Firebase on this platform, sign in with OpenIDConnectProvider instead.")
    }
    return link
  }
}
