import Foundation
import SignInConcurrency
import SignInEmbeddedTestSupport
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import Testing

/// The embedded backend trusting a real OpenID issuer (served here on 127.0.0.1): ID tokens are
/// verified against the issuer's published keys and client id, and a credential with only an
/// access token is accepted only when introspection (RFC 7662) says it was issued to this app,
/// then resolved through the issuer's userinfo endpoint.
@Suite(.timeLimit(.minutes(3)))
struct EmbeddedBackendRealIssuerTests {
  /// A credential handed over as is.
  actor FixedProvider: SignInProvider {
    let fixed: ProviderCredential
    init(_ credential: ProviderCredential) { fixed = credential }
    nonisolated var id: ProviderID { .google }
    func credential() async throws -> ProviderCredential { fixed }
    func signOut() async {}
  }

  /// The real transport with a deadline as long as the test's: on a machine busy with the rest
  /// of the suite (under a sanitizer, several times slower) the loopback issuer may answer late,
  /// and late is not wrong.
  struct PatientTransport: HTTPTransport {
    let wrapped = URLSessionTransport()
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      var request = request
      request.timeout = .seconds(150)
      return try await wrapped.send(request)
    }
  }

  /// The issuer's discovery document at `base`, with `extra` members (`"name":"value"` pairs).
  static func discovery(_ base: String, extra: String = "") -> String {
    #"{"issuer":"\#(base)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token","jwks_uri":"\#(base)/jwks""#
      + extra + "}"
  }

  static func issuerServer(idp: EmbeddedIdentityProvider) throws -> (LoopbackHTTPServer, Locked<String>) {
    let issuerURL = Locked("")
    let jwks = String(decoding: try idp.jwks, as: UTF8.self)
    let server = try LoopbackHTTPServer { request in
      let base = issuerURL.withLock { $0 }
      switch request.target {
      case "/.well-known/openid-configuration":
        return .init(
          status: 200,
          body: discovery(
            base, extra: #","userinfo_endpoint":"\#(base)/userinfo","introspection_endpoint":"\#(base)/introspect""#))
      case "/jwks": return .init(status: 200, body: jwks)
      case "/introspect":
        switch String(decoding: request.body, as: UTF8.self) {
        case "token=good-access-token":
          return .init(status: 200, body: #"{"active":true,"client_id":"real-client","sub":"u-77"}"#)
        case "token=other-apps-token":  // the same user, but issued to another app
          return .init(status: 200, body: #"{"active":true,"client_id":"someone-else","sub":"u-77"}"#)
        default: return .init(status: 200, body: #"{"active":false}"#)
        }
      case "/userinfo":
        guard ["Bearer good-access-token", "Bearer other-apps-token"].contains(request.headers["authorization"] ?? "")
        else {
          return .init(status: 401, body: #"{"error":"invalid_token"}"#)
        }
        return .init(
          status: 200, body: #"{"sub":"u-77","email":"Grace@Example.com","email_verified":true,"name":"Grace"}"#)
      default: return .init(status: 404, body: "{}")
      }
    }
    issuerURL.withLock { $0 = "http://\(server.host)" }
    return (server, issuerURL)
  }

  @Test func verifiesTheIssuersTokensAndResolvesAccessTokensThroughUserinfo() async throws {
    // The real issuer's key: an IdP whose issuer string is set once the server's port is known.
    let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("issuer-\(UUID().uuidString).pem")
    defer { try? FileManager.default.removeItem(at: keyFile) }
    let probe = try EmbeddedIdentityProvider.google(keyFile: keyFile)
    let (server, issuerURL) = try Self.issuerServer(idp: probe)
    defer { server.stop() }
    let idp = try EmbeddedIdentityProvider(
      providerID: .google, issuer: issuerURL.withLock { $0 }, clientID: "real-client", keyFile: keyFile)
    var configuration = EmbeddedBackend.Configuration()
    configuration.identityProviders[.google] = try await .discover(
      issuer: issuerURL.withLock { $0 }, clientIDs: ["real-client"], transport: PatientTransport())
    configuration.transport = PatientTransport()
    let backend = try EmbeddedBackend(directory: nil, configuration: configuration)
    let auth = Auth(backend: backend, store: InMemorySessionStore())

    let viaAccessToken = try await auth.signIn(
      with: FixedProvider(ProviderCredential(providerID: .google, accessToken: "good-access-token")))
    #expect(viaAccessToken.user.email == "grace@example.com")
    #expect(viaAccessToken.user.displayName == "Grace")
    try await auth.signOut()

    let refused = try await #require(throws: AuthError.self) {
      _ = try await auth.signIn(with: FixedProvider(ProviderCredential(providerID: .google, accessToken: "stolen")))
    }
    #expect(refused.code == .invalidCredential)

    // Token substitution: a valid token of the same user, obtained by another app, is refused.
    let substituted = try await #require(throws: AuthError.self) {
      _ = try await auth.signIn(
        with: FixedProvider(ProviderCredential(providerID: .google, accessToken: "other-apps-token")))
    }
    #expect(substituted.code == .invalidCredential)
    #expect(substituted.message.contains("another app"))

    let viaIDToken = try await auth.signIn(
      with: FixedProvider(ProviderCredential(providerID: .google, idToken: try idp.idToken(email: "ada@example.com"))))
    #expect(viaIDToken.user.email == "ada@example.com")
    try await auth.signOut()

    let otherClient = try EmbeddedIdentityProvider(
      providerID: .google, issuer: issuerURL.withLock { $0 }, clientID: "someone-else", keyFile: keyFile)
    let wrongAudience = try await #require(throws: AuthError.self) {
      _ = try await auth.signIn(
        with: FixedProvider(
          ProviderCredential(providerID: .google, idToken: try otherClient.idToken(email: "ada@example.com"))))
    }
    #expect(wrongAudience.code == .invalidCredential)
    await auth.shutdown()
  }
}

extension EmbeddedBackendRealIssuerTests {
  @Test func anAccessTokenWhoseAudienceCannotBeCheckedIsRefused() async throws {
    var configuration = EmbeddedBackend.Configuration()
    configuration.identityProviders[.google] = .init(
      issuer: "https://issuer.example", audiences: ["real-client"], jwks: Data(#"{"keys":[]}"#.utf8),
      userinfoEndpoint: URL(string: "https://issuer.example/userinfo"))
    let transport = RecordingTransport([.status(200, #"{"sub":"u-77","email":"grace@example.com"}"#)])
    configuration.transport = transport
    let backend = try EmbeddedBackend(directory: nil, configuration: configuration)
    let error = try await #require(throws: AuthError.self) {
      _ = try await backend.signInWithIdp(
        IdpSignInRequest(credential: ProviderCredential(providerID: .google, accessToken: "any-apps-token")))
    }
    #expect(error.code == .invalidCredential)
    #expect(error.message.contains("ID token"))
    #expect(transport.requests.isEmpty)
  }
}

extension EmbeddedBackendRealIssuerTests {
  @Test func aKeyRotationAtTheIssuerIsPickedUpWithoutARestart() async throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let issuerURL = Locked("")
    let published = Locked(Data())
    let server = try LoopbackHTTPServer { request in
      let base = issuerURL.withLock { $0 }
      switch request.target {
      case "/.well-known/openid-configuration":
        return .init(status: 200, body: Self.discovery(base))
      case "/jwks": return .init(status: 200, body: String(decoding: published.withLock { $0 }, as: UTF8.self))
      default: return .init(status: 404, body: "{}")
      }
    }
    defer { server.stop() }
    issuerURL.withLock { $0 = "http://\(server.host)" }
    let clock = TestDate()
    func idp(_ name: String) throws -> EmbeddedIdentityProvider {
      try EmbeddedIdentityProvider(
        providerID: .google, issuer: issuerURL.withLock { $0 }, clientID: "real-client",
        keyFile: scratch.appendingPathComponent("\(name).pem"), now: { clock.now })
    }
    let before = try idp("before")
    published.withLock { $0 = try! before.jwks }
    var configuration = EmbeddedBackend.Configuration()
    configuration.identityProviders[.google] = try await .discover(
      issuer: issuerURL.withLock { $0 }, clientIDs: ["real-client"], transport: PatientTransport())
    configuration.transport = PatientTransport()
    let backend = try EmbeddedBackend(directory: nil, configuration: configuration, now: { clock.now })
    func signIn(_ idp: EmbeddedIdentityProvider) async throws -> SignInResponse {
      try await backend.signInWithIdp(
        IdpSignInRequest(
          credential: ProviderCredential(providerID: .google, idToken: try idp.idToken(email: "ada@example.com"))))
    }
    _ = try await signIn(before)
    let fetchesBefore = server.requests.filter { $0.target == "/jwks" }.count

    // The issuer rotates to a new key. Within 30 s of the last fetch the new kid is refused
    // without asking the issuer; after that, one fetch picks the new key up.
    let after = try idp("after")
    published.withLock { $0 = try! after.jwks }
    await #expect(throws: AuthError.self) { _ = try await signIn(after) }
    #expect(server.requests.filter { $0.target == "/jwks" }.count == fetchesBefore)
    clock.advance(31)
    _ = try await signIn(after)
    #expect(server.requests.filter { $0.target == "/jwks" }.count == fetchesBefore + 1)
  }
}
