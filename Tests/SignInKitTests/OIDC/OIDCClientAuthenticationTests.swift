import Foundation
import SignInKitTesting
import Testing

@testable import SignInKit

/// How a client proves itself at the token endpoint (RFC 6749 §2.3.1): HTTP Basic with a secret,
/// unless the issuer takes only `client_secret_post`; `client_id` in the body without one.
@Suite struct OIDCClientAuthenticationTests {
  static func client(secret: String?, methods: [String]) -> OIDCClient {
    var metadata = TestIssuer().metadata
    metadata.tokenEndpointAuthMethods = methods
    return OIDCClient(metadata: metadata, clientID: "app id:1", clientSecret: secret, transport: URLSessionTransport())
  }

  static func body(_ request: HTTPRequest) -> String { String(decoding: request.body, as: UTF8.self) }

  @Test func aSecretGoesInABasicHeaderWithItsPartsFormEncoded() {
    let request = Self.client(secret: "s3cr:et/+", methods: ["client_secret_basic"])
      .authenticatedForm(URL(string: "https://issuer.example.com/token")!, [("grant_type", "refresh_token")])
    let expected = Data("app%20id%3A1:s3cr%3Aet%2F%2B".utf8).base64EncodedString()
    #expect(request.header("Authorization") == "Basic \(expected)")
    #expect(Self.body(request) == "grant_type=refresh_token")
  }

  @Test func anIssuerThatTakesOnlyPostGetsTheSecretInTheBody() {
    let request = Self.client(secret: "secret", methods: ["client_secret_post"])
      .authenticatedForm(URL(string: "https://issuer.example.com/token")!, [("grant_type", "refresh_token")])
    #expect(request.header("Authorization") == nil)
    #expect(Self.body(request) == "grant_type=refresh_token&client_id=app%20id%3A1&client_secret=secret")
  }

  @Test func aPublicClientSendsItsIDInTheBody() {
    let request = Self.client(secret: nil, methods: ["client_secret_basic"])
      .authenticatedForm(URL(string: "https://issuer.example.com/token")!, [("grant_type", "refresh_token")])
    #expect(request.header("Authorization") == nil)
    #expect(Self.body(request) == "grant_type=refresh_token&client_id=app%20id%3A1")
  }

  @Test(arguments: [
    (#", "token_endpoint_auth_methods_supported": ["client_secret_post"]"#, ["client_secret_post"]),
    ("", ["client_secret_basic"]),
  ])
  func discoveryReadsTheMethodsAndDefaultsToBasic(_ extra: String, _ expected: [String]) async throws {
    let document =
      #"{"issuer": "https://issuer.example.com", "authorization_endpoint": "https://issuer.example.com/a", "#
      + #""token_endpoint": "https://issuer.example.com/t", "jwks_uri": "https://issuer.example.com/k""# + extra + "}"
    let metadata = try await OIDCProviderMetadata.discover(
      issuer: "https://issuer.example.com", transport: RecordingTransport([.status(200, document)]))
    #expect(metadata.tokenEndpointAuthMethods == expected)
    #expect(OIDCProviderMetadata.google.tokenEndpointAuthMethods.contains("client_secret_basic"))
  }
}
