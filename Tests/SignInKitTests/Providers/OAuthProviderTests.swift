import Foundation
import SignInConcurrency
import SignInCrypto
import SignInEmbeddedTestSupport
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

  // MARK: - Linking, reauthenticating, conflicts

  @Test(arguments: kinds)
  func linksAndReauthenticatesWithTheSameMicrosoftAccount(_ kind: BackendKind) async throws {
    let harness = Harness(kind, acceptsUnsignedIdPTokens: true)
    let routes = HandlerPageBrowser.routes(of: harness)
    let ada = try await harness.signUp("ada@example.com")
    let made = HandlerPageBrowser(routes: routes, choice: .newAccount(email: "ada@contoso.example", displayName: "Ada"))
    let linked = try await harness.auth.link(with: Self.provider(.microsoft, made))
    #expect(linked.user.uid == ada.user.uid)
    #expect(Set(linked.user.providers.map(\.providerID)) == [.password, .microsoft])

    let same = HandlerPageBrowser(routes: routes, choice: .firstListed)
    let user = try await harness.auth.reauthenticate(with: Self.provider(.microsoft, same))
    #expect(user.uid == ada.user.uid)

    let other = HandlerPageBrowser(
      routes: routes, choice: .newAccount(email: "eve@contoso.example", displayName: "Eve"))
    let mismatch = await #expect(throws: AuthError.self) {
      _ = try await harness.auth.reauthenticate(with: Self.provider(.microsoft, other))
    }
    #expect(mismatch?.code == .userMismatch)
    #expect(harness.auth.currentUser?.uid == ada.user.uid, "the session is kept")
  }

  @Test(arguments: kinds)
  func aConflictCarriesTheEmailAndACredentialToLinkLater(_ kind: BackendKind) async throws {
    let harness = Harness(kind, acceptsUnsignedIdPTokens: true)
    let routes = HandlerPageBrowser.routes(of: harness)
    let ada = try await harness.signUp("ada@example.com")
    try await harness.auth.signOut()
    let browser = HandlerPageBrowser(routes: routes, choice: .newAccount(email: "ada@example.com", displayName: "Ada"))
    let conflict = await #expect(throws: AuthError.self) {
      _ = try await harness.auth.signIn(with: Self.provider(.github, browser))
    }
    #expect(conflict?.code == .accountExistsWithDifferentCredential)
    #expect(conflict?.email == "ada@example.com")
    let updated = try #require(conflict?.updatedCredential)
    #expect(updated.providerID == .github)
    #expect(updated.pendingToken != nil && updated.responseURL == nil, "the pending token, not the page's answer again")

    // The person signs in as they used to, then links GitHub with the credential handed back.
    _ = try await harness.auth.signIn(email: "ada@example.com", password: "correct horse")
    let linked = try await harness.auth.link(with: updated)
    #expect(linked.user.uid == ada.user.uid)
    #expect(linked.user.providers.map(\.providerID).contains(.github))
  }

  // MARK: - What goes on the wire

  @Test func firebaseReceivesThePagesAnswerAsRequestUriWithTheSessionID() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"localId":"u1","idToken":"t","refreshToken":"r","expiresIn":"3600"}"#)
    ])
    let backend = try FirebaseBackend.emulator(projectID: "demo-app", transport: transport)
    let answer =
      "http://127.0.0.1:9099/emulator/auth/handler?providerId=microsoft.com&id_token=%7B%22sub%22%3A%221%22%7D"
    _ = try await backend.signInWithIdp(
      IdpSignInRequest(credential: .hosted(.microsoft, responseURL: answer, sessionID: "SESSION")))
    let body = try #require(transport.requests.first?.body)
    let sent = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    #expect(sent["requestUri"] as? String == answer)
    #expect(sent["sessionId"] as? String == "SESSION")
    #expect(sent["postBody"] as? String == "providerId=microsoft.com")
    #expect(sent["returnIdpCredential"] as? Bool == true)
  }

  // MARK: - Refusals

  /// A sheet that answers at the app's scheme with a fixed deep link.
  struct FixedAnswer: WebAuthenticationSession {
    let deepLinkQuery: String
    func authenticate(at url: URL, callbackScheme: String) async throws -> URL {
      let inner = "http://127.0.0.1:9099/__/auth/callback?" + deepLinkQuery
      return URL(string: "\(callbackScheme)://firebaseauth/link?deep_link_id=\(FormEncodingForTests.escape(inner))")!
    }
  }

  @Test func anAnswerToAnotherSignInIsRefusedAndNothingChanges() async throws {
    let harness = Harness(.scripted, acceptsUnsignedIdPTokens: true)
    let provider = OAuthProvider(
      configuration: .init(providerID: .microsoft, site: Self.site(), flow: .webSheet),
      webSession: FixedAnswer(deepLinkQuery: "authType=signInWithRedirect&eventId=SOMEONE-ELSE&link=http%3A%2F%2Fx"),
      surface: SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: false))
    let error = await #expect(throws: AuthError.self) { _ = try await harness.auth.signIn(with: provider) }
    #expect(error?.code == .invalidResponse)
    #expect(error?.message.contains("another sign-in") == true)
    #expect(harness.backend.count(of: .signInWithIdp) == 0)
  }

  @Test func theHandlersOwnErrorReachesTheApp() async throws {
    let harness = Harness(.scripted, acceptsUnsignedIdPTokens: true)
    let error = #"{"code":"auth/operation-not-allowed","message":"Microsoft sign-in is off"}"#
    let provider = OAuthProvider(
      configuration: .init(providerID: .microsoft, site: Self.site(), flow: .webSheet),
      webSession: FixedAnswer(deepLinkQuery: "firebaseError=" + FormEncodingForTests.escape(error)),
      surface: SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: false))
    let thrown = await #expect(throws: AuthError.self) { _ = try await harness.auth.signIn(with: provider) }
    #expect(thrown?.code == .invalidCredential)
    #expect(thrown?.message.contains("Microsoft sign-in is off") == true)
  }

  @Test func aSignInForAnotherTenantIsRefusedBeforeTheBackendIsCalled() async throws {
    let harness = Harness(.scripted, acceptsUnsignedIdPTokens: true)
    let browser = HandlerPageBrowser(
      routes: HandlerPageBrowser.routes(of: harness), choice: .newAccount(email: "t@example.com", displayName: "T"))
    let error = await #expect(throws: AuthError.self) {
      _ = try await harness.auth.signIn(with: Self.provider(.microsoft, browser, tenantID: "team-b"))
    }
    #expect(error?.code == .tenantMismatch)
    #expect(harness.backend.count(of: .signInWithIdp) == 0)
  }

  // MARK: - Waiting

  @Test func aPageThatNeverAnswersTimesOutAndTheListenerCloses() async throws {
    let clock = ManualClock()
    let shown = Locked<URL?>(nil)
    let provider = OAuthProvider(
      configuration: .init(providerID: .github, site: Self.site(), flow: .browser, timeout: .seconds(60)),
      surface: SignInSurface(hasSystemWebSheet: false, hasDesktopBrowser: true), clock: clock,
      present: { prompt in if case .openBrowser(let url) = prompt { shown.withLock { $0 = url } } })
    let attempt = Task { try await provider.credential() }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(60))
    let error = try await #require(throws: AuthError.self) { _ = try await attempt.value }
    #expect(error.code == .timeout)
    // The redirect the page was given is no longer listened on.
    let redirect = try #require(
      shown.withLock { $0 }.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?
        .first { $0.name == "redirectUrl" }?.value.flatMap(URL.init(string:)))
    await #expect(throws: (any Error).self) {
      _ = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: redirect))
    }
  }

  @Test func cancellingTheSignInClosesTheListenerAndSaysCancelled() async throws {
    let shown = AsyncStream<Void>.makeStream()
    let provider = OAuthProvider(
      configuration: .init(providerID: .yahoo, site: Self.site(), flow: .browser),
      surface: SignInSurface(hasSystemWebSheet: false, hasDesktopBrowser: true),
      present: { _ in shown.continuation.yield() })
    let attempt = Task { try await provider.credential() }
    for await _ in shown.stream { break }
    attempt.cancel()
    let error = try await #require(throws: AuthError.self) { _ = try await attempt.value }
    #expect(error.code == .cancelled)
  }

  @Test func withNoSchemeToAnswerAtTheSheetFlowSaysWhatToSet() async throws {
    var site = Self.site(clientID: nil)
    site.appID = nil
    let provider = OAuthProvider(
      configuration: .init(providerID: .yahoo, site: site, flow: .webSheet),
      webSession: FixedAnswer(deepLinkQuery: ""),
      surface: SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: false))
    let error = await #expect(throws: AuthError.self) { _ = try await provider.credential() }
    #expect(error?.code == .misconfigured)
    #expect(error?.message.contains("CFBundleURLTypes") == true)
  }
}

/// Percent-encoding as a browser's `encodeURIComponent`, for answers the tests write by hand.
enum FormEncodingForTests {
  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}
