import Foundation
import SignInConcurrency
import SignInFoundation
import SignInKitTesting
import SignInTestSupport
import Testing

@testable import SignInKit

/// The issuer's access token for its APIs: granted scopes, an absolute expiry, one refresh for
/// any number of callers, and a refused refresh token ending the issuer's session.
@Suite(.timeLimit(.minutes(3)))
struct OpenIDConnectProviderAccessTokenTests {
  /// An issuer on loopback whose token endpoint grants `scope`, and refuses refresh tokens once
  /// `refusesRefresh` is set; the wall clock its tokens are checked against is `now`.
  final class Issuer: Sendable {
    let server: LoopbackHTTPServer
    let issuer: TestIssuer
    let refusesRefresh = Locked(false)
    let nonce = Locked<String?>(nil)
    let now = Locked(Date())
    /// What the last authorization request asked for.
    let asked = Locked<[String: String]>([:])
    /// When set, the token endpoint grants what was asked instead of its fixed scopes.
    let grantsWhatIsAsked = Locked(false)
    /// When set, the next ID token is another account's.
    let otherAccount = Locked(false)
    var refreshes: Int {
      server.requests.filter {
        $0.target == "/token" && String(decoding: $0.body, as: UTF8.self).contains("grant_type=refresh_token")
      }.count
    }

    init() throws {
      let box = Locked<TestIssuer?>(nil)
      let (refuses, nonce, asked) = (refusesRefresh, self.nonce, self.asked)
      let (grantsWhatIsAsked, otherAccount) = (self.grantsWhatIsAsked, self.otherAccount)
      server = try LoopbackHTTPServer { request in
        guard let issuer = box.withLock({ $0 }) else { return nil }
        switch request.target.prefix(while: { $0 != "?" }) {
        case "/.well-known/openid-configuration": return .init(status: 200, body: issuer.discovery)
        case "/jwks": return .init(status: 200, body: issuer.jwks)
        case "/token":
          let body = String(decoding: request.body, as: UTF8.self)
          if body.contains("grant_type=refresh_token") {
            if refuses.withLock({ $0 }) {
              return .init(
                status: 400, body: #"{"error":"invalid_grant","error_description":"Token has been revoked."}"#)
            }
            return .init(status: 200, body: #"{"access_token":"AT-2","expires_in":3600,"token_type":"Bearer"}"#)
          }
          let subject: [String: JSONValue] = otherAccount.withLock { $0 } ? ["sub": .string("someone-else")] : [:]
          let token = issuer.idToken(nonce: nonce.withLock { $0 }, overrides: subject)
          let scope =
            grantsWhatIsAsked.withLock { $0 }
            ? asked.withLock { $0["scope"] ?? "" } : "openid email https://www.googleapis.com/auth/drive.file"
          return .init(
            status: 200,
            body: #"{"access_token":"AT-1","id_token":"\#(token)","refresh_token":"RT","expires_in":3600,"#
              + #""scope":"\#(scope)"}"#)
        default: return .init(status: 404, body: "{}")
        }
      }
      issuer = TestIssuer(issuer: "http://\(server.host)", clientID: "desktop-client")
      box.withLock { $0 = issuer }
    }

    func provider(refreshTokenFile: URL? = nil, store: (any ProviderTokenStore)? = nil) -> OpenIDConnectProvider {
      let nonce = self.nonce
      let now = self.now
      let asked = self.asked
      var configuration = OpenIDConnectProvider.Configuration(
        issuer: issuer.issuer, clientID: issuer.clientID, providerID: .google, flow: .browser,
        timeout: .seconds(30), refreshTokenFile: refreshTokenFile)
      configuration.refreshTokenStore = store
      return OpenIDConnectProvider(
        configuration: configuration,
        now: { now.withLock { $0 } },
        present: { prompt in
          guard case .openBrowser(let url) = prompt else { return }
          let fields = OpenIDConnectProviderTests.queryFields(url)
          nonce.withLock { $0 = fields["nonce"] }
          asked.withLock { $0 = fields }
          OpenIDConnectProviderTests.LoopbackIssuer.follow(
            URL(string: "\(fields["redirect_uri"] ?? "")?code=CODE-1&state=\(fields["state"] ?? "")")!)
        })
    }

    func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
  }

  @Test func theGrantedScopesAndAnAbsoluteExpiryComeWithTheTokens() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let provider = issuer.provider()
    #expect(await provider.grantedScopes.isEmpty)
    let signedInAt = issuer.now.withLock { $0 }
    _ = try await provider.credential()
    #expect(await provider.grantedScopes == ["openid", "email", "https://www.googleapis.com/auth/drive.file"])
    #expect(await provider.tokens?.expiresAt == signedInAt.addingTimeInterval(3600))
  }

  @Test func theAccessTokenIsTheCurrentOneUntilItNearsExpiryThenARefreshedOne() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let provider = issuer.provider()
    _ = try await provider.credential()
    #expect(try await provider.freshAccessToken() == "AT-1")
    issuer.advance(3600 - 120)
    #expect(try await provider.freshAccessToken() == "AT-1", "two minutes left is enough for one")
    #expect(issuer.refreshes == 0)
    issuer.advance(90)
    #expect(try await provider.freshAccessToken() == "AT-2", "thirty seconds left is not")
    #expect(issuer.refreshes == 1)
    // The refresh kept what its reply left out.
    #expect(await provider.tokens?.idToken != nil)
    #expect(await provider.grantedScopes.contains("https://www.googleapis.com/auth/drive.file"))
  }

  @Test func aThousandCallersAfterExpiryShareOneRefresh() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let provider = issuer.provider()
    _ = try await provider.credential()
    issuer.advance(7200)
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<1_000 { group.addTask { try await provider.freshAccessToken() } }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(tokens.count == 1_000 && Set(tokens) == ["AT-2"])
    #expect(issuer.refreshes == 1)
  }

  @Test func aRefusedRefreshTokenEndsTheIssuersSessionAndForgetsTheStoredToken() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let folder = try TemporaryDirectory()
    let file = folder.url.appendingPathComponent("google-refresh-token")
    let provider = issuer.provider(refreshTokenFile: file)
    _ = try await provider.credential()
    #expect(FileManager.default.fileExists(atPath: file.path))
    issuer.refusesRefresh.withLock { $0 = true }
    issuer.advance(7200)
    let refused = await #expect(throws: AuthError.self) { try await provider.freshAccessToken() }
    #expect(refused?.code == .invalidCredential)
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let after = await #expect(throws: AuthError.self) { try await provider.freshAccessToken() }
    #expect(after?.code == .noCurrentUser)
  }

  @Test func aRestoredSessionGivesAFreshAccessTokenInANewProcess() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let folder = try TemporaryDirectory()
    let file = folder.url.appendingPathComponent("google-refresh-token")
    _ = try await issuer.provider(refreshTokenFile: file).credential()
    // A new provider, as in the next launch: nothing in memory, the refresh token on disk.
    let next = issuer.provider(refreshTokenFile: file)
    #expect(try await next.restoreSession())
    #expect(try await next.freshAccessToken() == "AT-2")
    #expect(issuer.refreshes == 1, "the restore's refresh is the token's")
  }

  @Test func addingAScopeAsksForItWithTheGrantedOnesAndKeepsTheRefreshToken() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    issuer.grantsWhatIsAsked.withLock { $0 = true }
    let provider = issuer.provider()
    _ = try await provider.credential()
    #expect(await provider.grantedScopes == ["openid", "email", "profile"])
    let drive = "https://www.googleapis.com/auth/drive.readonly"
    let granted = try await provider.addScopes([drive, "email"])
    #expect(granted == ["openid", "email", "profile", drive])
    #expect(issuer.asked.withLock { $0["scope"] } == "openid email profile \(drive)")
    // The signed-in account is preselected at the issuer.
    #expect(issuer.asked.withLock { $0["login_hint"] } != nil)
    // Asking again for what is granted shows nothing.
    let requests = issuer.server.requests.count
    #expect(try await provider.addScopes([drive]) == granted)
    #expect(issuer.server.requests.count == requests)
    #expect(await provider.tokens?.refreshToken == "RT")
  }

  @Test func anotherAccountChosenWhileAddingAScopeChangesNothing() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let provider = issuer.provider()
    _ = try await provider.credential()
    let before = await provider.tokens
    issuer.otherAccount.withLock { $0 = true }
    let error = await #expect(throws: AuthError.self) {
      try await provider.addScopes(["https://www.googleapis.com/auth/calendar"])
    }
    #expect(error?.code == .userMismatch)
    #expect(await provider.tokens == before)
  }

  @Test func aBareRefreshTokenStoredByAnEarlierVersionStillRestores() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let store = KeychainProviderTokenStore(provider: .google, keychain: FakeKeychain())
    try store.save("RT")
    let provider = issuer.provider(store: store)
    #expect(try await provider.restoreSession())
    #expect(try await provider.freshAccessToken() == "AT-2")
  }

  @Test func theGooglePresetsKeepTheSessionUnlessTold() throws {
    let google = OpenIDConnectProvider.Configuration.google(clientID: "1-abc.apps.googleusercontent.com")
    #expect(google.refreshTokenStore != nil)
    let file = OpenIDConnectProvider.Configuration.google(
      clientID: "1-abc.apps.googleusercontent.com", refreshTokenFile: URL(fileURLWithPath: "/tmp/g"))
    #expect(file.refreshTokenStore == nil && file.refreshTokenFile != nil)
  }

  @Test func addingAScopeNeedsASession() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let error = await #expect(throws: AuthError.self) { try await issuer.provider().addScopes(["x"]) }
    #expect(error?.code == .noCurrentUser)
  }

  @Test func theRefreshTokenGoesToTheStoreGivenAndANewProviderRestoresFromIt() async throws {
    let issuer = try Issuer()
    defer { issuer.server.stop() }
    let keychain = FakeKeychain()
    let store = KeychainProviderTokenStore(provider: .google, keychain: keychain)
    _ = try await issuer.provider(store: store).credential()
    let stored = StoredProviderSession(stored: try #require(try store.load()))
    #expect(stored.refreshToken == "RT" && stored.scope?.contains("drive.file") == true)
    #expect(!String(describing: stored).contains("RT"))
    let next = issuer.provider(store: store)
    #expect(try await next.restoreSession())
    #expect(try await next.freshAccessToken() == "AT-2")
    // The refresh reply names no scopes: the ones granted before the relaunch are still known.
    #expect(await next.grantedScopes.contains("https://www.googleapis.com/auth/drive.file"))
    await next.signOut()
    #expect(try store.load() == nil)
    #expect(try await issuer.provider(store: store).restoreSession() == false)
  }
}
