import Foundation
import SignInConcurrency
import SignInCrypto
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// The browser flow end to end on 127.0.0.1: an issuer served by a loopback HTTP server, the
/// provider's loopback redirect listener, and a test "browser" that follows the authorization
/// URL back to the listener the way the issuer would redirect it.
@Suite(.timeLimit(.minutes(3)))
struct OpenIDConnectProviderTests {
  /// The query fields of an authorization URL, by name.
  static func queryFields(_ url: URL) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
        ($0.name, $0.value ?? "")
      })
  }

  /// What the browser does with the authorization URL.
  enum Browser: Sendable {
    case approve
    case returnState(String)
    case deny
    case ignore
  }

  /// An issuer on a loopback server; `tokenNonce` decides the nonce in the ID token it issues.
  final class LoopbackIssuer: Sendable {
    let server: LoopbackHTTPServer
    let issuer: TestIssuer
    let sentNonce = Locked<String?>(nil)
    let sentChallenge = Locked<String?>(nil)

    init(tokenNonce: (@Sendable (String?) -> String?)? = nil) throws {
      let box = Locked<TestIssuer?>(nil)
      let sentNonce = sentNonce
      server = try LoopbackHTTPServer { request in
        guard let issuer = box.withLock({ $0 }) else { return nil }
        switch request.target.prefix(while: { $0 != "?" }) {
        case "/.well-known/openid-configuration": return .init(status: 200, body: issuer.discovery)
        case "/jwks": return .init(status: 200, body: issuer.jwks)
        case "/token":
          let nonce = sentNonce.withLock { $0 }
          let token = issuer.idToken(nonce: tokenNonce.map { $0(nonce) } ?? nonce)
          // As Google answers a code exchange that names the app's server (`audience`).
          let serverCode =
            String(decoding: request.body, as: UTF8.self).contains("audience=server-client")
            ? #","server_code":"SERVER-CODE-1""# : ""
          return .init(
            status: 200,
            body: #"{"access_token":"AT","id_token":"\#(token)","refresh_token":"RT","expires_in":3600\#(serverCode)}"#)
        default: return .init(status: 404, body: "{}")
        }
      }
      issuer = TestIssuer(issuer: "http://\(server.host)", clientID: "desktop-client")
      box.withLock { $0 = issuer }
    }

    /// The browser following a redirect to the loopback listener: connected and sent at once
    /// (a raw socket, not URLSession, whose start-up can take longer than a test's deadline on
    /// a busy machine), the reply read on a thread of its own.
    static func follow(_ redirect: URL) {
      guard let port = redirect.port.map(UInt16.init), let client = try? RawHTTPClient(port: port) else { return }
      let target = redirect.path + (redirect.query.map { "?\($0)" } ?? "")
      client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
      Task { _ = await client.replyUntilClosed() }
    }

    /// The browser approving: the redirect goes back with the code and the request's state.
    static func approve(_ prompt: OpenIDConnectProvider.Prompt, sentNonce: Locked<String?>) async {
      guard case .openBrowser(let url) = prompt else { return }
      let fields = OpenIDConnectProviderTests.queryFields(url)
      sentNonce.withLock { $0 = fields["nonce"] }
      follow(URL(string: "\(fields["redirect_uri"] ?? "")?code=CODE-1&state=\(fields["state"] ?? "")")!)
    }

    /// A provider whose presenter plays `browser`.
    func provider(
      _ browser: Browser, providerID: ProviderID = .google, clock: any Clock<Duration> = ContinuousClock(),
      serverClientID: String? = nil
    ) -> OpenIDConnectProvider {
      let (sentNonce, sentChallenge) = (sentNonce, sentChallenge)
      var configuration = OpenIDConnectProvider.Configuration(
        issuer: issuer.issuer, clientID: issuer.clientID, providerID: providerID, timeout: .seconds(30))
      configuration.serverClientID = serverClientID
      return OpenIDConnectProvider(
        configuration: configuration,
        clock: clock,
        present: { prompt in
          guard case .openBrowser(let url) = prompt else { return }
          let fields = OpenIDConnectProviderTests.queryFields(url)
          sentNonce.withLock { $0 = fields["nonce"] }
          sentChallenge.withLock { $0 = fields["code_challenge"] }
          let redirect = fields["redirect_uri"] ?? ""
          let query: String
          switch browser {
          case .approve: query = "code=CODE-1&state=\(fields["state"] ?? "")"
          case .returnState(let state): query = "code=CODE-1&state=\(state)"
          case .deny: query = "error=access_denied&state=\(fields["state"] ?? "")"
          case .ignore: return
          }
          // The browser follows the redirect; the provider is waiting on the listener meanwhile.
          LoopbackIssuer.follow(URL(string: "\(redirect)?\(query)")!)
        })
    }
  }

  @Test func theCodeFlowReturnsAVerifiedCredential() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let credential = try await issuer.provider(.approve).credential()
    #expect(credential.providerID == .google)
    #expect(credential.accessToken == "AT")
    #expect(credential.idToken?.split(separator: ".").count == 3)
    let tokenRequest = try #require(issuer.server.requests.first { $0.target == "/token" })
    let body = String(decoding: tokenRequest.body, as: UTF8.self)
    let verifier = try #require(body.split(separator: "&").first { $0.hasPrefix("code_verifier=") }?.dropFirst(14))
    #expect(PKCE(verifier: String(verifier)).challenge == issuer.sentChallenge.withLock { $0 })
    #expect(body.contains("code=CODE-1"))
    #expect(body.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
  }

  @Test func theCredentialCarriesTheRawNonceItsTokenEchoesAndAnAppMayChooseIt() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let fresh = try await issuer.provider(.approve).credential()
    let freshToken = try JSONWebToken(decoding: try #require(fresh.idToken))
    #expect(fresh.rawNonce?.isEmpty == false)
    #expect(freshToken.claims["nonce"]?.string == fresh.rawNonce)

    let chosen = try await issuer.provider(.approve).credential(nonce: "the-app's-own-nonce")
    #expect(chosen.rawNonce == "the-app's-own-nonce")
    #expect(try JSONWebToken(decoding: try #require(chosen.idToken)).claims["nonce"]?.string == "the-app's-own-nonce")
    #expect(!"\(chosen)".contains("the-app's-own-nonce"), "never in a description")
  }

  @Test func aServerClientIDBringsAServerAuthCodeForTheAppsServer() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let credential = try await issuer.provider(.approve, serverClientID: "server-client").credential()
    #expect(credential.serverAuthCode == "SERVER-CODE-1")
    #expect(!"\(credential)".contains("SERVER-CODE-1"))
    let exchange = try #require(issuer.server.requests.first { $0.target == "/token" })
    #expect(String(decoding: exchange.body, as: UTF8.self).contains("audience=server-client"))
    let without = try await issuer.provider(.approve).credential()
    #expect(without.serverAuthCode == nil)
  }

  @Test func anyIssuerSignsInUnderTheProviderIDItIsConfiguredWith() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let provider = issuer.provider(.approve, providerID: .oidc("example"))
    #expect(provider.id == "oidc.example")
    let credential = try await provider.credential()
    #expect(credential.providerID == "oidc.example")
    #expect(credential.idToken != nil)
  }

  @Test func theGooglePresetIsGooglesIssuerAndProviderID() {
    let google = OpenIDConnectProvider.Configuration.google(clientID: "1-abc.apps.googleusercontent.com")
    #expect(google.issuer == "https://accounts.google.com")
    #expect(google.providerID == .google)
    #expect(google.scopes == ["openid", "email", "profile"])
  }

  @Test func aForgedStateIsRefused() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let error = try await #require(throws: AuthError.self) {
      _ = try await issuer.provider(.returnState("forged")).credential()
    }
    #expect(error.code == .invalidCredential)
    #expect(error.message.contains("state"))
    #expect(!issuer.server.requests.contains { $0.target == "/token" }, "no code is exchanged")
  }

  @Test func anIDTokenWithAnotherNonceIsRefused() async throws {
    let issuer = try LoopbackIssuer(tokenNonce: { _ in "replayed-nonce" })
    defer { issuer.server.stop() }
    let error = try await #require(throws: AuthError.self) { _ = try await issuer.provider(.approve).credential() }
    #expect(error.code == .invalidCredential)
    #expect(error.message.contains("nonce"))
  }

  @Test func aDenialIsTheUserCancelling() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let error = try await #require(throws: AuthError.self) { _ = try await issuer.provider(.deny).credential() }
    #expect(error.code == .userCancelled)
  }

  @Test func theListenerTimesOutWhenTheBrowserNeverComesBack() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let clock = ManualClock()
    let provider = issuer.provider(.ignore, clock: clock)
    let attempt = Task { try await provider.credential() }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(30))
    let error = try await #require(throws: AuthError.self) { _ = try await attempt.value }
    #expect(error.code == .timeout)
  }

  @Test func signOutForgetsGooglesTokens() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let provider = issuer.provider(.approve)
    _ = try await provider.credential()
    #expect(await provider.tokens?.refreshToken == "RT")
    await provider.signOut()
    #expect(await provider.tokens == nil)
  }
}

extension OpenIDConnectProviderTests {
  /// A provider whose IdP never answers a restore.
  actor SilentIdP: RestorableSignInProvider {
    nonisolated var id: ProviderID { .google }
    func credential() async throws -> ProviderCredential { throw AuthError(.cancelled, "unused") }
    func signOut() async {}
    func restoreSession() async throws -> Bool {
      let never = AsyncStream<Never> { _ in }
      for await _ in never {}
      throw CancellationError()
    }
  }

  /// A fresh folder for Google's refresh-token file, removed with the value.
  final class TokenFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("google-\(UUID().uuidString)")
    var tokenFile: URL { url.appendingPathComponent("google-refresh-token") }
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  /// A provider that approves in the browser and keeps Google's refresh token in `tokenFile`.
  static func rememberingProvider(
    _ issuer: LoopbackIssuer, tokenFile: URL, revokesOnSignOut: Bool = false
  ) -> OpenIDConnectProvider {
    var configuration = issuer.provider(.approve).configuration
    configuration.refreshTokenFile = tokenFile
    configuration.revokesOnSignOut = revokesOnSignOut
    return OpenIDConnectProvider(
      configuration: configuration,
      present: { prompt in
        await OpenIDConnectProviderTests.LoopbackIssuer.approve(prompt, sentNonce: issuer.sentNonce)
      })
  }

  @Test func googlesSessionIsRestoredWithTheBackendSessionAndForgottenOnSignOut() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let folder = try TokenFolder()
    let tokenFile = folder.tokenFile
    let backend = ScriptedBackend()
    let store = InMemorySessionStore()
    func provider() -> OpenIDConnectProvider { Self.rememberingProvider(issuer, tokenFile: tokenFile) }

    let first = Auth(backend: backend, store: store)
    _ = try await first.signIn(with: provider())
    await first.shutdown()
    #expect(FileManager.default.fileExists(atPath: tokenFile.path))
    let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)

    let relaunched = Auth(backend: backend, store: store)
    let google = provider()
    let user = try await relaunched.restorePreviousSignIn(alongWith: [google])
    #expect(user != nil)
    #expect(await google.tokens?.accessToken == "AT")
    let refreshes = issuer.server.requests.filter {
      String(decoding: $0.body, as: UTF8.self).hasPrefix("grant_type=refresh_token&refresh_token=RT")
    }
    #expect(refreshes.count == 1)
    try await relaunched.signOut()
    #expect(await google.tokens == nil)
    #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
    await relaunched.shutdown()
  }

  @Test func signOutRevokesTheStoredRefreshTokenEvenWhenThisProcessNeverRestoredIt() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let folder = try TokenFolder()
    let tokenFile = folder.tokenFile
    func provider() -> OpenIDConnectProvider {
      Self.rememberingProvider(issuer, tokenFile: tokenFile, revokesOnSignOut: true)
    }
    _ = try await provider().credential()
    #expect(FileManager.default.fileExists(atPath: tokenFile.path))

    // A later launch that signs out without restoring Google's session first.
    let later = provider()
    await later.signOut()
    let revocations = issuer.server.requests.filter { $0.target.hasPrefix("/revoke") }
    #expect(revocations.count == 1)
    #expect(revocations.first.map { String(decoding: $0.body, as: UTF8.self).hasPrefix("token=RT") } == true)
    #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
  }

  @Test func aSilentIdPDoesNotHoldTheRestorePastItsDeadline() async throws {
    let clock = ManualClock()
    let backend = ScriptedBackend()
    let store = InMemorySessionStore()
    let auth = Auth(
      backend: backend, store: store, clock: clock, configuration: AuthConfiguration(restoreDeadline: .seconds(5)))
    let restore = Task { try await auth.restorePreviousSignIn(alongWith: [SilentIdP()]) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(5))
    #expect(try await restore.value == nil)
    await auth.shutdown()
  }

  // The app-redirect flow (ASWebAuthenticationSession on iOS), with a fake sheet.

  /// A sign-in sheet that answers the way `answer` says, and remembers what it was shown.
  struct FakeWebSession: WebAuthenticationSession {
    enum Answer: Sendable { case approve, forgedState, otherScheme, closed, repeatedState }
    let answer: Answer
    let shown = Locked<(url: URL, scheme: String)?>(nil)
    let sentNonce: Locked<String?>

    func authenticate(at url: URL, callbackScheme: String) async throws -> URL {
      shown.withLock { $0 = (url, callbackScheme) }
      let fields = OpenIDConnectProviderTests.queryFields(url)
      sentNonce.withLock { $0 = fields["nonce"] }
      let redirect = fields["redirect_uri"] ?? ""
      let state = fields["state"] ?? ""
      switch answer {
      case .approve: return URL(string: "\(redirect)?code=CODE-1&state=\(state)")!
      case .forgedState: return URL(string: "\(redirect)?code=CODE-1&state=forged")!
      case .repeatedState: return URL(string: "\(redirect)?code=CODE-1&state=\(state)&state=forged")!
      case .otherScheme: return URL(string: "com.example.other:/oauthredirect?code=CODE-1&state=\(state)")!
      case .closed: throw OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 1)
      }
    }
  }

  static let appRedirect = OpenIDConnectProvider.appRedirectURI(
    reversedClientID: "com.googleusercontent.apps.123-abc")

  func appProvider(_ issuer: LoopbackIssuer, _ session: FakeWebSession?) -> OpenIDConnectProvider {
    OpenIDConnectProvider(
      configuration: .init(
        issuer: issuer.issuer.issuer, clientID: issuer.issuer.clientID, providerID: .google,
        flow: .appRedirect(Self.appRedirect),
        timeout: .seconds(30)),
      webSession: session)
  }

  @Test func theAppRedirectFlowSignsInThroughTheSheetWithTheReversedClientIDScheme() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let session = FakeWebSession(answer: .approve, sentNonce: issuer.sentNonce)
    let credential = try await appProvider(issuer, session).credential()
    #expect(credential.accessToken == "AT")
    #expect(Self.appRedirect.absoluteString == "com.googleusercontent.apps.123-abc:/oauthredirect")
    #expect(session.shown.withLock { $0?.scheme } == "com.googleusercontent.apps.123-abc")
    let tokenRequest = try #require(issuer.server.requests.first { $0.target == "/token" })
    let body = String(decoding: tokenRequest.body, as: UTF8.self)
    #expect(body.contains("redirect_uri=com.googleusercontent.apps.123-abc%3A%2Foauthredirect"))
    #expect(body.contains("code_verifier="))
  }

  @Test func onAPhoneTheDefaultFlowIsTheSheetWithTheAppsRedirect() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let session = FakeWebSession(answer: .approve, sentNonce: issuer.sentNonce)
    let provider = OpenIDConnectProvider(
      configuration: .init(
        issuer: issuer.issuer.issuer, clientID: issuer.issuer.clientID, providerID: .google,
        appRedirectURI: Self.appRedirect, timeout: .seconds(30)),
      webSession: session, surface: SignInSurface(hasSystemWebSheet: true, hasDesktopBrowser: false))
    #expect(provider.configuration.flow == .automatic)
    let credential = try await provider.credential()
    #expect(credential.accessToken == "AT")
    #expect(session.shown.withLock { $0?.scheme } == "com.googleusercontent.apps.123-abc")
  }

  @Test(arguments: [
    (FakeWebSession.Answer.forgedState, AuthError.Code.invalidCredential),
    (.repeatedState, .invalidResponse),
    (.otherScheme, .invalidResponse),
    (.closed, .userCancelled),
  ])
  func aSheetThatComesBackWrongExchangesNothing(_ answer: FakeWebSession.Answer, _ code: AuthError.Code) async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let session = FakeWebSession(answer: answer, sentNonce: issuer.sentNonce)
    let error = try await #require(throws: AuthError.self) { _ = try await appProvider(issuer, session).credential() }
    #expect(error.code == code)
    #expect(!issuer.server.requests.contains { $0.target == "/token" }, "no code is exchanged")
  }

  @Test func theAppRedirectFlowWithoutASheetSaysWhatToPass() async throws {
    let issuer = try LoopbackIssuer()
    defer { issuer.server.stop() }
    let error = try await #require(throws: AuthError.self) { _ = try await appProvider(issuer, nil).credential() }
    #expect(error.code == .misconfigured)
    #expect(error.message.contains("SystemWebAuthenticationSession"))
  }

  @Test func webAuthenticationErrorCodesAreWordedForThePerson() {
    #expect(OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 1).code == .userCancelled)
    #expect(OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 2).code == .misconfigured)
    #expect(OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 3).code == .misconfigured)
    #expect(OpenIDConnectProvider.error(forWebAuthenticationErrorCode: 9).message.contains("9"))
  }

  @Test func theSheetsCompletionHandlerArgumentsBecomeTheAnswer() throws {
    let callback = URL(string: "com.example:/oauthredirect?code=1")!
    #expect(try OpenIDConnectProvider.webAuthenticationResult(callback: callback, errorCode: nil).get() == callback)
    for (code, expected) in [(1, AuthError.Code.userCancelled), (2, .misconfigured), (nil, .unavailable)] {
      let result = OpenIDConnectProvider.webAuthenticationResult(callback: nil, errorCode: code)
      #expect(throws: AuthError.self) { try result.get() }
      if case .failure(let error as AuthError) = result { #expect(error.code == expected) }
    }
  }
}
