import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import Testing

/// A real third-party OpenID provider (`oidc-provider-mock`, started by `.ci/run`): the full
/// code flow through the loopback redirect listener, with the test as the browser, then a
/// sign-in to the embedded backend configured to trust that issuer.
enum OIDCPeer {
  /// The mock's issuer URL, from `SIGNINKIT_OIDC_ISSUER`.
  static let issuer = ProcessInfo.processInfo.environment["SIGNINKIT_OIDC_ISSUER"].flatMap { $0.isEmpty ? nil : $0 }
  /// Set by `.ci/run`: a missing peer is then a failure, not a skip.
  static let isRequired = ProcessInfo.processInfo.environment["SIGNINKIT_REQUIRE_PEERS"] == "1"
  static let clientID = "signinkit-peer-test"
}

@Suite(
  .timeLimit(.minutes(3)),
  .enabled(
    if: OIDCPeer.issuer != nil,
    "no OpenID peer: set SIGNINKIT_OIDC_ISSUER to a running oidc-provider-mock (bash .ci/run starts one)"))
struct OIDCPeerTests {
  /// The browser: submits the mock's login form for `subject`, and follows its redirect to the
  /// loopback listener.
  static func browser(subject: String) -> @Sendable (OpenIDConnectProvider.Prompt) async -> Void {
    { prompt in
      guard case .openBrowser(let url) = prompt else { return }
      Task {
        _ = try? await URLSessionTransport().send(
          HTTPRequest(
            url: url, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("sub=\(subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subject)".utf8)))
      }
    }
  }

  static func provider(subject: String) -> OpenIDConnectProvider {
    OpenIDConnectProvider(
      configuration: .init(
        issuer: OIDCPeer.issuer!, clientID: OIDCPeer.clientID, providerID: .google, clientSecret: "peer-secret",
        timeout: .seconds(20)),
      present: browser(subject: subject))
  }

  @Test func theCodeFlowCompletesAndTheEmbeddedBackendTrustsTheIssuer() async throws {
    let issuer = try #require(OIDCPeer.issuer)
    let credential = try await Self.provider(subject: "ada@example.com").credential()
    #expect(credential.idToken != nil)
    #expect(credential.accessToken != nil)

    var configuration = EmbeddedBackend.Configuration()
    configuration.identityProviders[.google] = try await .discover(issuer: issuer, clientIDs: [OIDCPeer.clientID])
    let auth = Auth(
      backend: try EmbeddedBackend(directory: nil, configuration: configuration), store: InMemorySessionStore())
    let first = try await auth.signIn(with: Self.provider(subject: "grace@example.com"))
    #expect(first.isNewUser)
    #expect(first.user.email == "grace@example.com")
    #expect(first.user.providers.map(\.providerID) == [.google])
    try await auth.signOut()
    let again = try await auth.signIn(with: Self.provider(subject: "grace@example.com"))
    #expect(!again.isNewUser)
    #expect(again.user.uid == first.user.uid)
    await auth.shutdown()
  }

  @Test func tokensForAnotherClientAreRefused() async throws {
    let issuer = try #require(OIDCPeer.issuer)
    var configuration = EmbeddedBackend.Configuration()
    configuration.identityProviders[.google] = try await .discover(issuer: issuer, clientIDs: ["a-different-app"])
    let auth = Auth(
      backend: try EmbeddedBackend(directory: nil, configuration: configuration), store: InMemorySessionStore())
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.signIn(with: Self.provider(subject: "mallory@example.com"))
    }
    #expect(error.code == .invalidCredential)
    await auth.shutdown()
  }
}

/// The issuer's own session against the peer: a fresh access token after expiry for many callers
/// at once, a scope added after sign-in, a restore in a new process, and revocation.
@Suite(
  .timeLimit(.minutes(3)),
  .enabled(
    if: OIDCPeer.issuer != nil,
    "no OpenID peer: set SIGNINKIT_OIDC_ISSUER to a running oidc-provider-mock (bash .ci/run starts one)"))
struct OIDCPeerAccessTokenTests {
  let transport = OIDCPeerChecks.CountingTransport()
  let now = Locked(Date())

  func provider(
    subject: String, scopes: [String] = ["openid", "email", "profile"], refreshTokenFile: URL? = nil
  ) -> OpenIDConnectProvider {
    let now = self.now
    return OpenIDConnectProvider(
      configuration: .init(
        issuer: OIDCPeer.issuer!, clientID: OIDCPeer.clientID, providerID: .google, clientSecret: "peer-secret",
        scopes: scopes, timeout: .seconds(20), refreshTokenFile: refreshTokenFile),
      transport: transport, now: { now.withLock { $0 } }, present: OIDCPeerTests.browser(subject: subject))
  }

  @Test func aThousandCallersAfterExpiryShareOneRefreshAtThePeer() async throws {
    try await OIDCPeerChecks.aThousandCallersAfterExpiryShareOneRefresh(
      provider(subject: "ada@example.com"), transport: transport, now: now, lifetime: 3600)
  }

  @Test func aScopeIsAddedAfterSignIn() async throws {
    try await OIDCPeerChecks.aScopeIsAddedAfterSignIn(
      provider(subject: "grace@example.com", scopes: ["openid", "email"]))
  }

  @Test func theIssuersSessionIsRestoredInANewProcessAndEndsWhenTheIssuerRevokesIt() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("refresh-token")
    _ = try await provider(subject: "tim@example.com", refreshTokenFile: file).credential()
    // The next launch: a new provider, only the stored refresh token.
    let next = provider(subject: "tim@example.com", refreshTokenFile: file)
    #expect(try await next.restoreSession())
    #expect(try await next.freshAccessToken().isEmpty == false)
    // The issuer revokes the user's tokens: the next refresh ends the issuer's session.
    let revoke = URL(string: "\(OIDCPeer.issuer!)/users/tim%40example.com/revoke-tokens")!
    _ = try await URLSessionTransport().send(HTTPRequest(url: revoke))
    now.withLock { $0 = $0.addingTimeInterval(7200) }
    let error = await #expect(throws: AuthError.self) { try await next.freshAccessToken() }
    #expect(error?.code == .invalidCredential)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }
}

@Suite struct OIDCPeerPresenceTests {
  @Test func thePeerIsThereWhenCIRequiresIt() {
    if OIDCPeer.isRequired, OIDCPeer.issuer == nil {
      Issue.record("SIGNINKIT_REQUIRE_PEERS=1 but SIGNINKIT_OIDC_ISSUER is not set: the OpenID peer did not start.")
    }
  }
}
