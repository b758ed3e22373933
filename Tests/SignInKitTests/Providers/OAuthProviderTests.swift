import Foundation
import SignInCrypto
import SignInEmulator
import SignInKitTesting
import Testing

@testable import SignInKit

/// Sign-in through the hosted handler: the URL FirebaseAuth iOS opens, and `Auth` signing in,
/// linking and reauthenticating with fake Microsoft and SAML accounts picked on `signin serve`'s
/// handler page, over the scripted, embedded and served backends.
@Suite(.timeLimit(.minutes(2)))
struct OAuthProviderTests {
  static let kinds = BackendKind.allCases

  static func site(clientID: String? = "123-abc.apps.googleusercontent.com") -> OAuthProvider.Site {
    .emulator(host: "127.0.0.1:9099", bundleID: "com.example.app", clientID: clientID)
  }

  static func provider(
    _ id: ProviderID = .microsoft, _ browser: HandlerPageBrowser, tenantID: String? = nil,
    flow: OAuthProvider.Flow = .webSheet
  ) -> OAuthProvider {
    OAuthProvider(
      configuration: .init(providerID: id, site: site(), tenantID: tenantID, flow: flow), webSession: browser,
      surface: SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: true),
      present: { await browser.open($0) })
  }

  // MARK: - The handler URL

  /// The query FirebaseAuth iOS's `OAuthProvider.getHeadfulLiteUrl` builds, in its order, with
  /// `+` written `%2B`; only `v` names this SDK instead of FirebaseAuth's.
  @Test func theProductionHandlerURLHasTheShapeFirebaseAuthBuilds() throws {
    let site = OAuthProvider.Site.firebase(
      authDomain: "demo-app.firebaseapp.com", apiKey: "AIza+key", bundleID: "com.example.app",
      clientID: "123-abc.apps.googleusercontent.com", appID: "1:123:ios:abc")
    var configuration = OAuthProvider.Configuration(
      providerID: .microsoft, site: site, scopes: ["mail.read", "openid"], customParameters: ["prompt": "consent"],
      tenantID: "team-a")
    configuration.site.languageCode = "fr"
    let url = HostedHandler.signInURL(
      page: try #require(site.handlerURL), configuration: configuration, eventID: "EVENTABCDE",
      sessionID: "SESSIONXYZ", answer: .appScheme)
    let hashed = Crypto.sha256Hex(Array("SESSIONXYZ".utf8))
    let expected =
      "https://demo-app.firebaseapp.com/__/auth/handler?apiKey=AIza%2Bkey&authType=signInWithRedirect"
      + "&ibi=com.example.app&sessionId=\(hashed)&v=\(FirebaseBackend.clientVersion)&eventId=EVENTABCDE"
      + "&providerId=microsoft.com&clientId=123-abc.apps.googleusercontent.com&tid=team-a"
      + "&scopes=mail.read,openid&customParameters=%7B%22prompt%22:%22consent%22%7D&hl=fr"
    #expect(url.absoluteString == expected)
    #expect(site.callbackScheme == "com.googleusercontent.apps.123-abc", "the reversed client id, as FirebaseAuth")
    #expect(
      OAuthProvider.Site.firebase(authDomain: "d", apiKey: "k", appID: "1:123:ios:abc").callbackScheme
        == "app-1-123-ios-abc")
  }

  @Test func aLoopbackSignInNamesItsRedirectInsteadOfTheAppsIDs() throws {
    let configuration = OAuthProvider.Configuration(providerID: .github, site: Self.site())
    let url = HostedHandler.signInURL(
      page: try #require(configuration.site.handlerURL), configuration: configuration, eventID: "E", sessionID: "S",
      answer: .loopback(URL(string: "http://127.0.0.1:5000/callback")!))
    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    #expect(url.path == "/emulator/auth/handler")
    #expect(items.first { $0.name == "redirectUrl" }?.value == "http://127.0.0.1:5000/callback")
    #expect(items.first { $0.name == "appName" }?.value == "[DEFAULT]")
    #expect(!items.contains { ["ibi", "clientId", "appId"].contains($0.name) })
  }

  // MARK: - Signing in

  @Test(arguments: kinds)
  func signsInWithAFakeMicrosoftAccountMadeOnTheHandlerPage(_ kind: BackendKind) async throws {
    let harness = Harness(kind, acceptsUnsignedIdPTokens: true)
    let routes = HandlerPageBrowser.routes(of: harness)
    let browser = HandlerPageBrowser(
      routes: routes, choice: .newAccount(email: "Grace@Example.com", displayName: "Grace"))
    let first = try await harness.auth.signIn(with: Self.provider(.microsoft, browser))
    #expect(first.isNewUser)
    #expect(first.providerID == .microsoft)
    #expect(first.user.email == "grace@example.com")
    #expect(first.user.displayName == "Grace")
    #expect(first.user.providers.map(\.providerID).contains(.microsoft))
    #expect(browser.seen.withLock { $0.first?.contains("Sign in with Microsoft") } == true)

    // Again, picking the account the page now lists: the same user.
    try await harness.auth.signOut()
    let again = HandlerPageBrowser(routes: routes, choice: .firstListed)
    let second = try await harness.auth.signIn(with: Self.provider(.microsoft, again))
    #expect(!second.isNewUser)
    #expect(second.user.uid == first.user.uid)
    #expect(again.seen.withLock { $0.first?.contains("grace@example.com") } == true, "the page lists the account")
  }

  @Test(arguments: kinds)
  func signsInWithASAMLProviderTheProjectConfigured(_ kind: BackendKind) async throws {
    let harness = Harness(kind, acceptsUnsignedIdPTokens: true)
    let routes = HandlerPageBrowser.routes(of: harness)
    let browser = HandlerPageBrowser(routes: routes, choice: .newAccount(email: "lin@acme.example", displayName: "Lin"))
    let provider = Self.provider(.saml("acme"), browser, flow: .browser)

    // Not configured yet: the page says so and what to do.
    let project = routes.backend.configuration.projectID
    let handler = "/emulator/auth/handler?apiKey=k&appName=app&providerId=saml.acme&redirectUrl=http://127.0.0.1:1/"
    let refused = await routes.reply(method: "GET", target: handler, headers: [:], body: Data())
    #expect(refused.status == 400)
    #expect(String(decoding: refused.body, as: UTF8.self).contains("has no saml.acme provider. Create it first"))
    let created = await routes.reply(
      method: "POST",
      target: "/identitytoolkit.googleapis.com/v2/projects/\(project)/inboundSamlConfigs?inboundSamlConfigId=saml.acme",
      headers: ["authorization": "Bearer owner", "content-type": "application/json"],
      body: Data(#"{"displayName":"Acme SSO","enabled":true}"#.utf8))
    #expect(created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")

    let result = try await harness.auth.signIn(with: provider)
    #expect(result.isNewUser)
    #expect(result.user.email == "lin@acme.example")
    #expect(result.user.emailVerified, "a SAML assertion's nameId is a verified email, as the emulator has it")
    #expect(result.user.providers.map(\.providerID) == [.saml("acme")])
    #expect(browser.seen.withLock { $0.last?.contains("Sign in with Acme SSO") } == true)
  }
}
