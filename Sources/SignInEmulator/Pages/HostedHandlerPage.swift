import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The emulator's hosted handler (`/emulator/auth/handler`), Firebase's
/// `https://AUTH_DOMAIN/__/auth/handler` for an offline project: the page a client's SDK opens to
/// sign in with a provider it does not run itself (Microsoft, GitHub, X, Yahoo, Facebook, Apple on
/// the web, `oidc.*`, `saml.*`). There is no provider behind it: the person picks a fake account
/// the project has seen with that provider, or makes one (email, name, photo), and the page hands
/// the client what it signs in with, as the Firebase emulator's page does: a URL on this handler
/// whose query carries the fake ID token (`providerId=…&id_token={…}`, and for SAML a
/// `SAMLResponse`), which the client sends to `accounts:signInWithIdp` as `requestUri`.
///
/// How the answer goes back depends on who asked:
///
/// | caller | the page |
/// |---|---|
/// | web popup (`authType` …Popup…) | posts the auth event to its opener, on `redirectUrl`'s origin, and closes |
/// | web redirect | keeps the event in session storage (where the JS SDK reads it) and goes to `redirectUrl` |
/// | iOS (`ibi`) | redirects to `SCHEME://firebaseauth/link?deep_link_id=…` (the reversed `clientId`, or `app-` and the `appId`) |
/// | Android (`apn`) | redirects to the `intent://` link Firebase's Android SDK reads |
/// | a native app's loopback listener (`redirectUrl` on `127.0.0.1` or `[::1]`) | redirects there with `link`, `eventId` and `authType` in the query |
///
/// The last row is SignInKit's own: the Firebase emulator and Firebase's handler give a desktop
/// app no way back, so ``OAuthProvider`` on Linux signs in through `signin serve` only.
enum HostedHandlerPage {
  /// The providers Firebase signs in with through its handler, with their names; `oidc.*` and
  /// `saml.*` ones come from the project's or tenant's configurations.
  static let builtIn: [String: String] = [
    "microsoft.com": "Microsoft", "yahoo.com": "Yahoo", "github.com": "GitHub", "twitter.com": "X (Twitter)",
    "facebook.com": "Facebook", "apple.com": "Apple", "google.com": "Google",
  ]

  /// `GET /emulator/auth/handler`: the page.
  static func page(_ query: EmulatorHandlerQuery, _ context: EmulatorPageContext) async throws -> EmulatorWebPage {
    let offer: Offer
    do {
      offer = try await offered(query, context)
    } catch let refusal as Refusal {
      return refusal.page
    }
    let identities = try await offer.backend.administering({
      try $0.identities(at: ProviderID(rawValue: offer.providerID))
    })
    let carried = EmulatorHandlerQuery.requestKeys.compactMap { key in
      query[key].map { "<input type=\"hidden\" name=\"\(key.stringValue)\" value=\"\(EmulatorPageHTML.escape($0))\">" }
    }.joined()
    let action = EmulatorPageHTML.escape(FirebaseAPI.emulatorHandlerChoice.paths[0].template.description)
    let name = EmulatorPageHTML.escape(offer.name)
    var body = """
      <h1>Sign in with \(name)</h1>
      <p class="note">This is <code>signin serve</code>'s stand-in for \(name) (<code>\(EmulatorPageHTML.escape(offer.providerID))</code>): \
      no password is asked. Pick an account, or make a new one; the app signs in as it.</p>
      """
    if offer.isMobileOnlyFlow {
      body += """
        <p class="note">Signing in with \(name) through the hosted handler from a mobile app works against an \
        emulator only; in production, use \(name)'s own SDK on that platform.</p>
        """
    }
    body += "<h2>Accounts seen with \(name)</h2>"
    if identities.isEmpty {
      body += "<p class=\"muted\" id=\"no-accounts\">No \(name) accounts have signed in to this project yet.</p>"
    } else {
      body += "<form method=\"get\" action=\"/\(action)\">\(carried)<ul class=\"accounts\">"
      for identity in identities {
        let photo =
          identity.photoURL.map { "<img alt=\"\" src=\"\(EmulatorPageHTML.escape($0.absoluteString))\">" } ?? ""
        body += """
          <li><button class="account" type="submit" name="rawId" value="\(EmulatorPageHTML.escape(identity.rawID))">\
          \(photo)<span><strong>\(EmulatorPageHTML.escape(identity.displayName ?? "(no display name)"))</strong><br>\
          <span class="muted">\(EmulatorPageHTML.escape(identity.email ?? "(no email)"))</span></span></button></li>
          """
      }
      body += "</ul></form>"
    }
    body += """
      <h2>A new account</h2>
      <form method="get" action="/\(action)" id="new-account">\(carried)
      <label>Email <input type="email" name="email" id="email" autocomplete="off"></label>
      <label>Display name <input name="displayName" id="displayName" autocomplete="off"></label>
      <label>Screen name <input name="screenName" id="screenName" autocomplete="off"></label>
      <label>Photo URL <input type="url" name="photoUrl" id="photoUrl" autocomplete="off"></label>
      <p><button type="button" id="auto-generate">Auto-generate user information</button> \
      <button type="submit" id="sign-in-new">Sign in with \(name) as this account</button></p>
      </form>
      """
    return EmulatorWebPage(
      html: EmulatorPageHTML.document(title: "Sign in with \(offer.name)", body: body, script: autoGenerate))
  }

  /// Fills the new account's fields with a made-up person, as the Firebase emulator's page does:
  /// an email, a name and a screen name that go together, different each time.
  private static let autoGenerate = """
    document.getElementById('auto-generate').addEventListener('click', function () {
      var colours = ['amber', 'blue', 'coral', 'green', 'indigo', 'orange', 'plum', 'teal'];
      var animals = ['badger', 'heron', 'koala', 'lynx', 'otter', 'panda', 'raven', 'wombat'];
      function pick(list) { return list[Math.floor(Math.random() * list.length)]; }
      var colour = pick(colours), animal = pick(animals), number = Math.floor(100 + Math.random() * 900);
      function title(word) { return word.charAt(0).toUpperCase() + word.slice(1); }
      document.getElementById('email').value = colour + '.' + animal + '.' + number + '@example.com';
      document.getElementById('displayName').value = title(colour) + ' ' + title(animal);
      document.getElementById('screenName').value = colour + '_' + animal + '_' + number;
    });
    """

  /// `GET /emulator/auth/handler/choose`: the account picked, handed back to the caller.
  static func choose(_ query: EmulatorHandlerQuery, _ context: EmulatorPageContext) async throws -> EmulatorWebPage {
    do {
      let offer = try await offered(query, context)
      var claims: [String: JSONValue] = [
        "iss": .string(""), "aud": .string(""), "exp": .number(0), "iat": .number(0), "email_verified": .bool(true),
      ]
      if let rawID = query.rawId {
        guard
          let identity = try await offer.backend.administering({
            try $0.identities(at: ProviderID(rawValue: offer.providerID))
          })
          .first(where: { $0.rawID == rawID })
        else {
          throw Refusal("No \(offer.name) account \(rawID) has signed in here. Go back and pick another, or make one.")
        }
        claims["sub"] = .string(identity.rawID)
        claims["email"] = identity.email.map(JSONValue.string)
        claims["name"] = identity.displayName.map(JSONValue.string)
        claims["picture"] = identity.photoURL.map { .string($0.absoluteString) }
      } else {
        let email = query.email?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if !email.isEmpty, !AccountRules.isEmail(email) {
          throw Refusal("\(email) is not an email address. Go back and correct it, or leave it empty.")
        }
        if let photo = query.photoUrl, !photo.isEmpty, !Self.isWebURL(photo) {
          throw Refusal("The photo URL must be an http or https URL. Go back and correct it, or leave it empty.")
        }
        // A fake user id at the provider, as the emulator's page makes one.
        let digits = try Crypto.randomDigits(20)
        claims["sub"] = .string(digits)
        func value(_ text: String?) -> JSONValue? { text.flatMap { $0.isEmpty ? nil : .string($0) } }
        claims["email"] = email.isEmpty ? nil : .string(email)
        claims["name"] = value(query.displayName)
        claims["screen_name"] = value(query.screenName)
        claims["picture"] = value(query.photoUrl)
      }
      return try answer(claims: claims, query: query, offer: offer, context: context)
    } catch let refusal as Refusal {
      return refusal.page
    }
  }

  // MARK: - The answer

  /// The event a web SDK's page reads: what Firebase's handler hands it.
  private struct AuthEvent: Encodable {
    var type: String
    var eventId: String?
    var urlResponse: String
    var sessionId = "ValueNotUsedByAuthEmulator"
    var postBody = ""
    var tenantId: String?
    var error: String? = nil

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(type, forKey: .type)
      try container.encode(eventId, forKey: .eventId)
      try container.encode(urlResponse, forKey: .urlResponse)
      try container.encode(sessionId, forKey: .sessionId)
      try container.encode(postBody, forKey: .postBody)
      try container.encode(tenantId, forKey: .tenantId)
      try container.encode(error, forKey: .error)
    }

    enum CodingKeys: String, CodingKey { case type, eventId, urlResponse, sessionId, postBody, tenantId, error }
  }

  private static func answer(
    claims: [String: JSONValue], query: EmulatorHandlerQuery, offer: Offer, context: EmulatorPageContext
  ) throws -> EmulatorWebPage {
    let token = EmulatorPageHTML.compactJSON(claims)
    var fields = [("providerId", offer.providerID), ("id_token", token)]
    if offer.providerID.hasPrefix(WireProviderID.samlPrefix) {
      let nameID = claims["email"]?.string ?? claims["sub"]?.string ?? ""
      let assertion: JSONValue = .object(["assertion": .object(["subject": .object(["nameId": .string(nameID)])])])
      fields.append(("SAMLResponse", EmulatorPageHTML.compactJSON(assertion)))
    }
    let handler = context.baseURL.appendingPathComponent(FirebaseAPI.emulatorHandler.paths[0].template.description)
    let urlResponse = handler.absoluteString + "?" + FormEncoding.encode(fields)
    let type = query.authType ?? "signInViaRedirect"
    let event = AuthEvent(type: type, eventId: query.eventId, urlResponse: urlResponse, tenantId: query.tenant)

    if type.range(of: "popup", options: .caseInsensitive) != nil {
      return try popupPage(event, query: query, context: context)
    }
    if let apn = query.apn, !apn.isEmpty {
      guard apn.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._".contains($0)) }) else {
        throw Refusal("apn must be an Android package name.")
      }
      var link =
        "intent://firebase.auth/#Intent;scheme=genericidp;package=\(apn);S.authType=\(FormEncoding.escape(type));"
      if let eventID = query.eventId { link += "S.eventId=\(FormEncoding.escape(eventID));" }
      link += "S.link=\(FormEncoding.escape(urlResponse));B.encryptionEnabled=false;end;"
      return EmulatorWebPage(redirectTo: link)
    }
    if let ibi = query.ibi, !ibi.isEmpty {
      return EmulatorWebPage(redirectTo: try iOSDeepLink(event, query: query, ibi: ibi, context: context))
    }
    guard let redirect = query.redirectUrl, let target = URLComponents(string: redirect), Self.isWebURL(redirect) else {
      throw Refusal(
        "This sign-in names no way back: a web page passes redirectUrl (http or https), an iOS app ibi, an "
          + "Android app apn.")
    }
    if target.scheme == "http", ["127.0.0.1", "[::1]", "::1"].contains(target.host ?? "") {
      // A native app's loopback listener (RFC 8252): the answer in the query, as iOS's deep link has it.
      var back = target
      back.percentEncodedQuery =
        [back.percentEncodedQuery, FormEncoding.encode(callbackFields(event))].compactMap { $0 }.joined(separator: "&")
      return EmulatorWebPage(redirectTo: back.string ?? redirect)
    }
    try requireAllowed(redirect, context: context)
    let storageKey = "\(query.apiKey ?? ""):\(query.appName ?? "")"
    let script = """
      var answer = JSON.parse(document.getElementById('answer').textContent);
      sessionStorage['firebase:redirectEvent:' + answer.storageKey] = JSON.stringify(answer.event);
      window.location.replace(answer.redirectUrl);
      """
    let data = EmulatorPageHTML.json(RedirectAnswer(event: event, storageKey: storageKey, redirectUrl: redirect))
    return EmulatorWebPage(
      html: EmulatorPageHTML.document(
        title: "Signing in",
        body: "<p>Going back to the app…</p><script type=\"application/json\" id=\"answer\">\(data)</script>",
        script: script))
  }

  private struct RedirectAnswer: Encodable {
    var event: AuthEvent
    var storageKey: String
    var redirectUrl: String
  }

  private struct PopupAnswer: Encodable {
    var event: AuthEvent
    var storageKey: String
    var targetOrigin: String
  }

  /// The popup's page: posts the event to the page that opened it, on `redirectUrl`'s origin
  /// only, in the message the JS SDK's helper frame takes (`sendAuthEvent`), then closes.
  private static func popupPage(
    _ event: AuthEvent, query: EmulatorHandlerQuery, context: EmulatorPageContext
  ) throws -> EmulatorWebPage {
    guard let redirect = query.redirectUrl, Self.isWebURL(redirect) else {
      throw Refusal("A popup sign-in passes redirectUrl: the address of the page that opened it.")
    }
    let origin = try requireAllowed(redirect, context: context)
    let storageKey = "\(query.apiKey ?? ""):\(query.appName ?? "")"
    let data = EmulatorPageHTML.json(PopupAnswer(event: event, storageKey: storageKey, targetOrigin: origin))
    let script = """
      var answer = JSON.parse(document.getElementById('answer').textContent);
      var status = document.getElementById('status');
      if (window.opener) {
        window.opener.postMessage({eventType: 'sendAuthEvent', data: {authEvent: answer.event, storageKey: answer.storageKey}},
          answer.targetOrigin);
        status.textContent = 'Signed in. This window closes now.';
        window.close();
      } else {
        status.textContent = 'The page that opened this window is gone. Start the sign-in again from the app.';
      }
      """
    return EmulatorWebPage(
      html: EmulatorPageHTML.document(
        title: "Signing in",
        body:
          "<p id=\"status\">Going back to the app…</p><script type=\"application/json\" id=\"answer\">\(data)</script>",
        script: script))
  }

  /// `SCHEME://firebaseauth/link?deep_link_id=…`, the callback FirebaseAuth iOS waits for: the
  /// reversed `clientId` or `app-APPID` as the scheme, or the bundle id with host `google`.
  private static func iOSDeepLink(
    _ event: AuthEvent, query: EmulatorHandlerQuery, ibi: String, context: EmulatorPageContext
  ) throws -> String {
    let callback =
      context.baseURL.appendingPathComponent("__/auth/callback").absoluteString + "?"
      + FormEncoding.encode(callbackFields(event))
    let scheme: String
    let host: String
    if let app = HandlerCallbackScheme.scheme(clientID: query.clientId, appID: query.appId) {
      scheme = app
      host = HandlerCallbackScheme.host
    } else {
      scheme = ibi
      host = "google"
    }
    let isScheme =
      scheme.first?.isLetter == true
      && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    guard isScheme, !["http", "https", "javascript", "data", "file", "blob", "vbscript"].contains(scheme.lowercased())
    else {
      throw Refusal("\(scheme) is not an app's URL scheme; pass the app's clientId, appId or bundle id (ibi).")
    }
    return "\(scheme)://\(host)/link?\(HandlerAnswerField.deepLink.rawValue)=\(FormEncoding.escape(callback))"
  }

  /// The answer's fields in a callback's query: `authType`, `link` and `eventId`.
  private static func callbackFields(_ event: AuthEvent) -> [(String, String)] {
    [(HandlerAnswerField.authType.rawValue, event.type), (HandlerAnswerField.link.rawValue, event.urlResponse)]
      + (event.eventId.map { [(HandlerAnswerField.eventID.rawValue, $0)] } ?? [])
  }

  /// The origin of `url`, refused unless pages there may call this server.
  @discardableResult
  private static func requireAllowed(_ url: String, context: EmulatorPageContext) throws -> String {
    guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host,
      let origin = EmulatorRequestPolicy.normalizedOrigin(
        "\(scheme)://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)"
          + (components.port.map { ":\($0)" } ?? "")),
      context.policy.isAllowed(origin: origin)
    else {
      throw Refusal(
        "The app's page (\(FirebaseFailure.printable(url))) is not on an origin this server serves: loopback "
          + "pages are, others with signin serve --allow-origin ORIGIN.")
    }
    return origin
  }

  /// Whether `text` is an `http(s)` URL with a host that a browser reads as this parser does.
  /// A backslash (a browser's path separator, RFC 3986's nothing: `http://evil.example\@localhost/`
  /// goes to evil.example), user info, white space or a control character is refused rather
  /// than guessed at.
  static func isWebURL(_ text: String) -> Bool {
    guard !text.contains("\\"), !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
      let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), url.host?.isEmpty == false,
      url.user == nil, url.password == nil
    else { return false }
    return scheme == "http" || scheme == "https"
  }

  // MARK: - What is offered

  /// The provider a request names, where its accounts are, and what to call it.
  private struct Offer {
    var providerID: String
    var name: String
    var backend: EmbeddedBackend
    /// Facebook or Apple from a mobile app: the emulator allows it, production does not.
    var isMobileOnlyFlow: Bool
  }

  /// The provider the request names, when this project (or its tenant) signs in with it.
  private static func offered(_ query: EmulatorHandlerQuery, _ context: EmulatorPageContext) async throws -> Offer {
    guard let apiKey = query.apiKey, !apiKey.isEmpty else {
      throw Refusal("The handler's URL has no apiKey. Open it from the app's SDK, which adds apiKey=YOUR_API_KEY.")
    }
    guard let providerID = query.providerId?.lowercased(), !providerID.isEmpty else {
      throw Refusal("The handler's URL names no providerId (microsoft.com, oidc.NAME, saml.NAME…).")
    }
    let callers = [query.appName, query.clientId, query.appId, query.apn, query.ibi, query.redirectUrl]
    guard callers.contains(where: { $0?.isEmpty == false }) else {
      throw Refusal("The handler's URL names no app: one of appName, redirectUrl, clientId, appId, apn or ibi.")
    }
    let backend: EmbeddedBackend
    if let tenant = query.tenant {
      backend = try await context.tenants.backend(for: tenant, creating: false)
    } else {
      backend = context.project
    }
    let configs = ServiceProviderConfigs(backend: backend)
    let name: String
    if let known = builtIn[providerID] {
      name = known
    } else if providerID.hasPrefix(WireProviderID.oidcPrefix) || providerID.hasPrefix(WireProviderID.samlPrefix) {
      let isOIDC = providerID.hasPrefix(WireProviderID.oidcPrefix)
      let configured: (displayName: String?, enabled: Bool?)?
      if isOIDC {
        configured = (try? await configs.oidc(providerID)).map { ($0.displayName, $0.enabled) }
      } else {
        configured = (try? await configs.saml(providerID)).map { ($0.displayName, $0.enabled) }
      }
      let scope = query.tenant.map { "tenant \($0)" } ?? "this project"
      guard let configured else {
        throw Refusal(
          "\(scope) has no \(providerID) provider. Create it first (the Admin SDK's "
            + "create_\(isOIDC ? "oidc" : "saml")_provider_config), then sign in again.")
      }
      guard configured.enabled == true else {
        throw Refusal(
          "\(providerID) is disabled in \(scope). Enable it (update its provider config), then sign in again.")
      }
      name = configured.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? providerID
    } else {
      throw Refusal(
        "\(providerID) is not a provider Firebase signs in with through its handler: use microsoft.com, yahoo.com, "
          + "github.com, twitter.com, facebook.com, apple.com, google.com, oidc.NAME or saml.NAME.")
    }
    let mobile = query.apn?.isEmpty == false || query.ibi?.isEmpty == false
    return Offer(
      providerID: providerID, name: name, backend: backend,
      isMobileOnlyFlow: mobile && (providerID == "facebook.com" || providerID == "apple.com"))
  }

  /// Why the page cannot go on, shown to the person with what to do.
  private struct Refusal: Error {
    let message: String
    init(_ message: String) { self.message = message }

    var page: EmulatorWebPage {
      EmulatorWebPage(
        html: EmulatorPageHTML.document(
          title: "Sign-in cannot go on",
          body: "<h1>Sign-in cannot go on</h1><p class=\"error\" id=\"error\">\(EmulatorPageHTML.escape(message))</p>"),
        status: 400)
    }
  }
}
