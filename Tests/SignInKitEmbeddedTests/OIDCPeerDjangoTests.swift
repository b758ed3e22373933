import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded
import SignInTestSupport
import Testing

/// A second real OpenID provider: django-oauth-toolkit (`Tests/Peers/django_oauth_peer.py`,
/// started by `.ci/run`), whose login form a Python browser fills in. The issuer's session end to
/// end: a sign-in the embedded backend trusts, a fresh access token after expiry for a thousand
/// callers at once, a scope added after sign-in, a restore in a new process, and a sign-out that
/// revokes the refresh token at the issuer.
enum DjangoOAuthPeer {
  /// The peer's issuer URL (`http://127.0.0.1:PORT/o`), from `SIGNINKIT_DOT_ISSUER`.
  static let issuer = ProcessInfo.processInfo.environment["SIGNINKIT_DOT_ISSUER"].flatMap { $0.isEmpty ? nil : $0 }
  /// The Python that runs the browser script (the peers' virtual environment).
  static let python = ProcessInfo.processInfo.environment["SIGNINKIT_PEER_PYTHON"] ?? "python3"
  static let clientID = "signinkit-peer-test"
  static let browserScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Peers/django_oauth_browser.py")

  /// The browser: signs in at the peer's login form as `username` and follows the redirect back
  /// to the loopback listener. What it says when it cannot is printed with the test's output.
  static func browser(username: String) -> @Sendable (OpenIDConnectProvider.Prompt) async -> Void {
    { prompt in
      guard case .openBrowser(let url) = prompt else { return }
      Task {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, browserScript.path, url.absoluteString, username]
        do {
          try await ProcessLaunchGate.shared.launching { try process.run() }
          try await runBlocking { process.waitUntilExit() }
        } catch {
          print("django-oauth-toolkit browser did not start: \(error)")
        }
      }
    }
  }
}

@Suite(
  .serialized, .timeLimit(.minutes(3)),
  .enabled(
    if: DjangoOAuthPeer.issuer != nil,
    "no django-oauth-toolkit peer: set SIGNINKIT_DOT_ISSUER (bash .ci/run starts one)"))
struct OIDCPeerDjangoTests {
  let transport = OIDCPeerChecks.CountingTransport()
  let now = Locked(Date())

  func provider(
    username: String, scopes: [String] = ["openid", "email", "profile"], refreshTokenFile: URL? = nil
  ) -> OpenIDConnectProvider {
    let now = self.now
    let issuer = DjangoOAuthPeer.issuer!
    var configuration = OpenIDConnectProvider.Configuration(
      issuer: issuer, clientID: DjangoOAuthPeer.clientID, providerID: .google, clientSecret: "peer-secret",
      scopes: scopes, timeout: .seconds(60), revokesOnSignOut: true, refreshTokenFile: refreshTokenFile)
    configuration.revocationEndpoint = URL(string: "\(issuer)/revoke_token/")
    return OpenIDConnectProvider(
      configuration: configuration, transport: transport, now: { now.withLock { $0 } },
      present: DjangoOAuthPeer.browser(username: username))
  }

  @Test func aSignInAtTheIssuerIsTrustedByTheEmbeddedBackend() async throws {
    var configuration = EmbeddedBackend.Configuration()
    configuration.identityProviders[.google] = try await .discover(
      issuer: DjangoOAuthPeer.issuer!, clientIDs: [DjangoOAuthPeer.clientID])
    let auth = Auth(
      backend: try EmbeddedBackend(directory: nil, configuration: configuration), store: InMemorySessionStore())
    let first = try await auth.signIn(with: provider(username: "grace@example.com"))
    #expect(first.isNewUser)
    #expect(first.user.email == "grace@example.com")
    try await auth.signOut()
    let again = try await auth.signIn(with: provider(username: "grace@example.com"))
    #expect(!again.isNewUser && again.user.uid == first.user.uid)
    await auth.shutdown()
  }

  @Test func aThousandCallersAfterExpiryShareOneRefreshAtThePeer() async throws {
    // django-oauth-toolkit's access tokens last ten hours unless configured otherwise.
    try await OIDCPeerChecks.aThousandCallersAfterExpiryShareOneRefresh(
      provider(username: "ada@example.com"), transport: transport, now: now, lifetime: 10 * 3600)
  }

  @Test func aScopeIsAddedAfterSignIn() async throws {
    try await OIDCPeerChecks.aScopeIsAddedAfterSignIn(
      provider(username: "grace@example.com", scopes: ["openid", "email"]))
  }

  @Test func theSessionIsRestoredInANewProcessAndSignOutRevokesItAtTheIssuer() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dot-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("refresh-token")
    _ = try await provider(username: "tim@example.com", refreshTokenFile: file).credential()
    let copy = folder.appendingPathComponent("refresh-token-copy")
    try FileManager.default.copyItem(at: file, to: copy)
    // The next launch: a new provider, only the stored refresh token.
    let next = provider(username: "tim@example.com", refreshTokenFile: file)
    #expect(try await next.restoreSession())
    #expect(try await next.freshAccessToken().isEmpty == false)
    await next.signOut()
    #expect(!FileManager.default.fileExists(atPath: file.path))
    // The revoked refresh token, kept aside, no longer works at the issuer.
    let afterSignOut = provider(username: "tim@example.com", refreshTokenFile: copy)
    let error = await #expect(throws: AuthError.self) { try await afterSignOut.restoreSession() }
    #expect(error?.code == .invalidCredential)
  }
}

@Suite struct OIDCPeerDjangoPresenceTests {
  @Test func thePeerIsThereWhenCIRequiresIt() {
    if OIDCPeer.isRequired, DjangoOAuthPeer.issuer == nil {
      Issue.record("SIGNINKIT_REQUIRE_PEERS=1 but SIGNINKIT_DOT_ISSUER is not set: django-oauth-toolkit did not start.")
    }
  }
}
