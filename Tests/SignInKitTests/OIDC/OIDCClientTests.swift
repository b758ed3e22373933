import Foundation
import SignInCrypto
import SignInKitTesting
import Testing

@testable import SignInKit

/// ID-token verification and the token endpoint: what is accepted and what is refused.
@Suite struct OIDCClientTests {
  let issuer = TestIssuer()

  func client(_ transport: RecordingTransport) -> OIDCClient {
    OIDCClient(metadata: issuer.metadata, clientID: issuer.clientID, transport: transport)
  }

  func refusal(_ token: String, nonce: String? = nil) async throws -> AuthError {
    let client = client(RecordingTransport([.status(200, issuer.jwks)]))
    return try await #require(throws: AuthError.self) { _ = try await client.verifyIDToken(token, nonce: nonce) }
  }

  @Test func pkceMatchesTheRFC7636Vector() {
    let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    let fresh = try! PKCE.generate()
    #expect(fresh.verifier.count == 43)
    #expect(fresh != (try! PKCE.generate()))
    #expect(!fresh.description.contains(fresh.verifier))
  }

  @Test func aValidTokenIsAcceptedAndAnArrayAudienceToo() async throws {
    let client = client(RecordingTransport([.status(200, issuer.jwks)]))
    let claims = try await client.verifyIDToken(issuer.idToken(nonce: "n1"), nonce: "n1")
    #expect(claims["email"] == "ada@example.com")
    // Several audiences: azp must name this client (OIDC Core §3.1.3.7).
    let array = issuer.idToken(
      overrides: ["aud": .array([.string("other"), .string(issuer.clientID)]), "azp": .string(issuer.clientID)])
    #expect(try await client.verifyIDToken(array, nonce: nil)["sub"] == "sub-1")
    let withoutParty = issuer.idToken(overrides: ["aud": .array([.string("other"), .string(issuer.clientID)])])
    #expect(try await refusal(withoutParty, nonce: nil).message.contains("azp"))
    #expect(client.transport is RecordingTransport)
  }

  @Test func aWrongNonceIsRefused() async throws {
    let error = try await refusal(issuer.idToken(nonce: "sent-elsewhere"), nonce: "mine")
    #expect(error.code == .invalidCredential)
    #expect(error.message.contains("nonce"))
    #expect(try await refusal(issuer.idToken(), nonce: "mine").code == .invalidCredential)
  }

  @Test func anExpiredTokenIsRefused() async throws {
    let old = issuer.idToken(now: Date().addingTimeInterval(-7200))
    let error = try await refusal(old)
    #expect(error.message.contains("expired"))
  }

  @Test func algNoneIsRefused() async throws {
    let payload = Base64URL.encode(
      Array(#"{"iss":"\#(issuer.issuer)","aud":"\#(issuer.clientID)","sub":"x","exp":9999999999}"#.utf8))
    let unsigned = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + payload + "."
    let error = try await refusal(unsigned)
    #expect(error.code == .invalidCredential)
    #expect(error.message.contains("none"))
  }

  @Test func anotherIssuerOrAudienceIsRefused() async throws {
    #expect(
      try await refusal(issuer.idToken(overrides: ["iss": .string("https://evil.example.com")])).message.contains(
        "issuer"))
    #expect(try await refusal(issuer.idToken(overrides: ["aud": .string("someone-else")])).message.contains("audience"))
    let forged = issuer.idToken().dropLast(4) + "AAAA"
    #expect(try await refusal(String(forged)).message.contains("signature"))
  }

  @Test func theCodeExchangeSendsTheVerifierAndReadsTheTokens() async throws {
    let transport = RecordingTransport([
      .status(
        200, #"{"access_token":"AT","id_token":"ID","refresh_token":"RT","expires_in":3599,"token_type":"Bearer"}"#)
    ])
    let pkce = PKCE(verifier: "v-123")
    let tokens = try await client(transport).exchange(
      code: "c/1", redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, pkce: pkce)
    #expect(tokens == OAuthTokens(idToken: "ID", accessToken: "AT", refreshToken: "RT", expiresIn: .seconds(3599)))
    let body = String(decoding: try #require(transport.requests.first).body, as: UTF8.self)
    #expect(
      body
        == "grant_type=authorization_code&code=c%2F1&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcallback&code_verifier=v-123&client_id=client-1"
    )
  }

  @Test func theAuthorizationURLCarriesPKCEStateAndNonce() throws {
    let url = client(RecordingTransport()).authorizationURL(
      redirectURI: URL(string: "http://127.0.0.1:5000/callback")!, scopes: ["openid", "email"], state: "s1",
      nonce: "n1",
      pkce: PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
    let fields = Dictionary(uniqueKeysWithValues: query.map { ($0.name, $0.value ?? "") })
    #expect(fields["code_challenge"] == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(fields["code_challenge_method"] == "S256")
    #expect(fields["state"] == "s1")
    #expect(fields["nonce"] == "n1")
    #expect(fields["scope"] == "openid email")
    #expect(fields["response_type"] == "code")
  }

  @Test func oauthErrorsSayWhatToDo() async throws {
    let transport = RecordingTransport([.status(400, #"{"error":"invalid_grant","error_description":"Bad code"}"#)])
    let error = try await #require(throws: AuthError.self) {
      _ = try await client(transport).refresh("RT")
    }
    #expect(error.code == .invalidCredential)
    #expect(error.message.contains("Bad code"))
  }

  @Test func discoveryChecksTheIssuer() async throws {
    let good = RecordingTransport([.status(200, issuer.discovery)])
    let metadata = try await OIDCProviderMetadata.discover(issuer: issuer.issuer + "/", transport: good)
    #expect(metadata == issuer.metadata)
    #expect(good.requests.first?.url.absoluteString == "https://issuer.example.com/.well-known/openid-configuration")
    let impostor = RecordingTransport([.status(200, TestIssuer(issuer: "https://evil.example.com").discovery)])
    let error = try await #require(throws: AuthError.self) {
      _ = try await OIDCProviderMetadata.discover(issuer: issuer.issuer, transport: impostor)
    }
    #expect(error.code == .misconfigured)
  }
}
