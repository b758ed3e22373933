import Foundation
import SignInEmbeddedTestSupport
import SignInWire
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// The hosted handler page through the routes (no socket): what it offers, how it hands the
/// picked account back to each kind of caller, and that `accounts:signInWithIdp` signs in with
/// the URL it hands back, as a client's SDK sends it.
@Suite struct HostedHandlerPageTests {
  let routes: FirebaseEmulatorRoutes

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(configuration))
  }

  static let handler = "/emulator/auth/handler"
  static let choose = "/emulator/auth/handler/choose"

  func get(_ path: String, _ fields: [(String, String)]) async -> FirebaseEmulatorRoutes.Reply {
    await routes.reply(method: "GET", target: path + "?" + FormEncoding.encode(fields), headers: [:], body: Data())
  }

  func post(_ path: String, _ body: [String: Any], admin: Bool = false) async throws -> (Int, [String: Any]) {
    var headers = ["content-type": "application/json"]
    if admin { headers["authorization"] = "Bearer owner" }
    let reply = await routes.reply(
      method: "POST", target: path, headers: headers, body: try JSONSerialization.data(withJSONObject: body))
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  static func location(_ reply: FirebaseEmulatorRoutes.Reply) -> String? {
    reply.headers.first { $0.name == "Location" }?.value
  }

  static func html(_ reply: FirebaseEmulatorRoutes.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

  static func query(_ url: String) -> [String: String] {
    Dictionary((URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { a, _ in a }
  }

  static let iOS = [
    ("apiKey", "fake-api-key"), ("authType", "signInWithRedirect"), ("ibi", "com.example.app"),
    ("eventId", "EVENT1"), ("providerId", "microsoft.com"), ("clientId", "123-abc.apps.googleusercontent.com"),
  ]

  // MARK: - Who gets the answer, and how

  @Test func anIOSAppGetsTheDeepLinkFirebaseAuthWaitsFor() async throws {
    let reply = await get(Self.choose, Self.iOS + [("email", "Grace@Example.com"), ("displayName", "Grace")])
    #expect(reply.status == 303)
    let location = try #require(Self.location(reply))
    #expect(location.hasPrefix("com.googleusercontent.apps.123-abc://firebaseauth/link?deep_link_id="))
    let callback = try #require(Self.query(location)["deep_link_id"])
    #expect(callback.hasPrefix("http://127.0.0.1:9099/__/auth/callback?"))
    let answer = Self.query(callback)
    #expect(answer["authType"] == "signInWithRedirect" && answer["eventId"] == "EVENT1")
    let link = try #require(answer["link"])
    let fields = Self.query(link)
    #expect(link.hasPrefix("http://127.0.0.1:9099/emulator/auth/handler?"))
    #expect(fields["providerId"] == "microsoft.com")
    let claims = try JSONSerialization.jsonObject(with: Data(try #require(fields["id_token"]).utf8)) as? [String: Any]
    #expect(claims?["email"] as? String == "grace@example.com" && claims?["name"] as? String == "Grace")
    #expect((claims?["sub"] as? String)?.count == 20, "a fake user id, as the emulator makes one")

    // The client signs in with that URL as requestUri, as FirebaseAuth iOS sends it.
    let (status, signedIn) = try await post(
      "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key",
      [
        "requestUri": link, "postBody": "providerId=microsoft.com", "sessionId": "S", "returnSecureToken": true,
        "returnIdpCredential": true,
      ])
    #expect(status == 200, "\(signedIn)")
    #expect(signedIn["providerId"] as? String == "microsoft.com" && signedIn["email"] as? String == "grace@example.com")
    #expect(signedIn["isNewUser"] as? Bool == true && signedIn["idToken"] != nil)
  }

  @Test func theSchemeIsTheAppIDsOrTheBundleIDsWithoutAClientID() async throws {
    var fields = Self.iOS.filter { $0.0 != "clientId" }
    let byAppID = await get(Self.choose, fields + [("appId", "1:123:ios:abc"), ("email", "a@example.com")])
    #expect(Self.location(byAppID)?.hasPrefix("app-1-123-ios-abc://firebaseauth/link?") == true)
    fields.append(("email", "a@example.com"))
    #expect(Self.location(await get(Self.choose, fields))?.hasPrefix("com.example.app://google/link?") == true)
    let hostile = await get(Self.choose, fields.map { $0.0 == "ibi" ? ("ibi", "javascript") : $0 })
    #expect(hostile.status == 400 && Self.location(hostile) == nil)
  }

  @Test func anAndroidAppGetsTheIntentLink() async throws {
    let fields = [
      ("apiKey", "k"), ("authType", "signInWithRedirect"), ("apn", "com.example.app"), ("eventId", "E2"),
      ("providerId", "yahoo.com"), ("email", "y@example.com"),
    ]
    let location = try #require(Self.location(await get(Self.choose, fields)))
    #expect(location.hasPrefix("intent://firebase.auth/#Intent;scheme=genericidp;package=com.example.app;"))
    #expect(location.contains("S.eventId=E2;") && location.hasSuffix("B.encryptionEnabled=false;end;"))
  }

  @Test func aNativeLoopbackListenerGetsTheAnswerInItsQuery() async throws {
    let fields = [
      ("apiKey", "k"), ("appName", "[DEFAULT]"), ("authType", "signInWithRedirect"),
      ("redirectUrl", "http://127.0.0.1:5123/callback"), ("eventId", "E3"), ("providerId", "github.com"),
      ("email", "g@example.com"),
    ]
    let location = try #require(Self.location(await get(Self.choose, fields)))
    #expect(location.hasPrefix("http://127.0.0.1:5123/callback?authType=signInWithRedirect&link="))
    #expect(Self.query(location)["eventId"] == "E3")
  }

  @Test func aWebPopupPostsTheEventToItsOpenerOnTheAppsOriginOnly() async throws {
    let popup = [
      ("apiKey", "k"), ("appName", "[DEFAULT]"), ("authType", "signInViaPopup"),
      ("redirectUrl", "http://localhost:5173/login?next=%2F"), ("eventId", "E4"), ("providerId", "microsoft.com"),
      ("email", "p@example.com"),
    ]
    let page = await get(Self.choose, popup)
    #expect(page.status == 200)
    let html = Self.html(page)
    #expect(html.contains(#""targetOrigin":"http://localhost:5173""#))
    #expect(html.contains("window.opener.postMessage") && html.contains(#""type":"signInViaPopup""#))
    #expect(page.headers.contains { $0.name == "Content-Security-Policy" })

    let foreign = await get(Self.choose, popup.map { $0.0 == "redirectUrl" ? ($0.0, "https://evil.example/") : $0 })
    #expect(foreign.status == 400)
    #expect(Self.html(foreign).contains("not on an origin this server serves"))
    #expect(!Self.html(foreign).contains("postMessage"))
  }

  @Test func aWebRedirectKeepsTheEventWhereTheJSSDKReadsItAndGoesBack() async throws {
    let redirect = [
      ("apiKey", "k"), ("appName", "[DEFAULT]"), ("authType", "signInViaRedirect"),
      ("redirectUrl", "http://localhost:5173/"), ("eventId", "E5"), ("providerId", "facebook.com"),
      ("email", "f@example.com"),
    ]
    let html = Self.html(await get(Self.choose, redirect))
    #expect(html.contains("sessionStorage['firebase:redirectEvent:' + answer.storageKey]"))
    #expect(html.contains(#""storageKey":"k:[DEFAULT]""#))
    let script = await get(Self.choose, redirect.map { $0.0 == "redirectUrl" ? ($0.0, "javascript:alert(1)") : $0 })
    #expect(script.status == 400)
  }

  /// Review V: `http://evil.example\@localhost/` passed the origin check (its parser saw
  /// user info and host localhost) while a browser goes to evil.example; backslashes, user info
  /// and white space are refused before any origin is compared.
  @Test(arguments: [
    #"http://evil.example\@localhost/"#, "http://evil.example@localhost/", "http://user:pw@localhost:5173/",
    #"http:\\evil.example/"#, "http://local host/", "http://localhost/\t",
  ])
  func aRedirectABrowserWouldReadAsAnotherHostIsRefused(_ target: String) async throws {
    for authType in ["signInViaRedirect", "signInViaPopup"] {
      let page = await get(
        Self.choose,
        [
          ("apiKey", "k"), ("appName", "[DEFAULT]"), ("authType", authType), ("redirectUrl", target),
          ("eventId", "E6"), ("providerId", "facebook.com"), ("email", "f@example.com"),
        ])
      #expect(page.status == 400, "\(authType) \(target)")
      #expect(!Self.html(page).contains("evil.example"))
    }
  }

  // MARK: - What the page offers

  @Test func thePageListsTheAccountsSeenWithTheProviderEscaped() async throws {
    let made = await get(
      Self.choose, Self.iOS + [("email", "x@example.com"), ("displayName", "<script>alert(1)</script>")])
    let location = try #require(Self.location(made))
    let callback = try #require(Self.query(location)["deep_link_id"])
    let link = try #require(Self.query(callback)["link"])
    _ = try await post(
      "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
      ["requestUri": link, "returnSecureToken": true])
    let page = Self.html(await get(Self.handler, Self.iOS))
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!page.contains("<script>alert(1)</script>"))
    #expect(page.contains("x@example.com"))
    let github = Self.html(await get(Self.handler, Self.iOS.map { $0.0 == "providerId" ? ($0.0, "github.com") : $0 }))
    #expect(github.contains("No GitHub accounts have signed in"), "accounts are listed by provider")
  }

  @Test func oidcAndSAMLProvidersAreOfferedWhenTheProjectOrTenantHasThemOn() async throws {
    let oidc = Self.iOS.map { $0.0 == "providerId" ? ($0.0, "oidc.okta") : $0 }
    #expect(await get(Self.handler, oidc).status == 400)
    let base = "/identitytoolkit.googleapis.com/v2/projects/signinkit-local"
    let config: [String: Any] = ["displayName": "Okta", "clientId": "c", "issuer": "https://okta.example"]
    #expect(
      try await post(base + "/tenants/team-a/oauthIdpConfigs?oauthIdpConfigId=oidc.okta", config, admin: true).0 == 200)
    let tenantPage = await get(Self.handler, oidc + [("tid", "team-a")])
    #expect(tenantPage.status == 400, "created disabled")
    #expect(Self.html(tenantPage).contains("oidc.okta is disabled in tenant team-a"))
    let patch = await routes.reply(
      method: "PATCH",
      target: base + "/tenants/team-a/oauthIdpConfigs/oidc.okta?updateMask=enabled",
      headers: ["content-type": "application/json", "authorization": "Bearer owner"],
      body: Data(#"{"enabled":true}"#.utf8))
    #expect(patch.status == 200)
    #expect(Self.html(await get(Self.handler, oidc + [("tid", "team-a")])).contains("Sign in with Okta"))
    #expect(await get(Self.handler, oidc).status == 400, "the project itself has no such provider")
    #expect(await get(Self.handler, Self.iOS.map { $0.0 == "providerId" ? ($0.0, "example.com") : $0 }).status == 400)
  }
}
