import Foundation
import SignInCrypto
import SignInFoundation
import SignInKitTesting

@testable import SignInKit

/// An OpenID issuer for tests: one RSA key (made once per run), ID tokens with any claims, and
/// the discovery document and JWK Set a transport can serve.
struct TestIssuer: Sendable {
  static let key = try! RSAPrivateKey.generate()
  static let kid = "test-key-1"

  let issuer: String
  let clientID: String

  init(issuer: String = "https://issuer.example.com", clientID: String = "client-1") {
    self.issuer = issuer
    self.clientID = clientID
  }

  var metadata: OIDCProviderMetadata {
    OIDCProviderMetadata(
      issuer: issuer, authorizationEndpoint: URL(string: "\(issuer)/authorize")!,
      tokenEndpoint: URL(string: "\(issuer)/token")!, jwksURI: URL(string: "\(issuer)/jwks")!,
      userinfoEndpoint: URL(string: "\(issuer)/userinfo")!,
      deviceAuthorizationEndpoint: URL(string: "\(issuer)/device")!,
      revocationEndpoint: URL(string: "\(issuer)/revoke")!)
  }

  var jwks: String {
    String(
      decoding: try! JSONWebKeySet(keys: [.init(kid: Self.kid, publicKey: try! Self.key.publicKey)]).json(),
      as: UTF8.self)
  }

  /// The discovery document, as the issuer would serve it.
  var discovery: String {
    let m = metadata
    return
      #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(m.authorizationEndpoint)","token_endpoint":"\#(m.tokenEndpoint)","jwks_uri":"\#(m.jwksURI)","userinfo_endpoint":"\#(m.userinfoEndpoint!)","device_authorization_endpoint":"\#(m.deviceAuthorizationEndpoint!)","revocation_endpoint":"\#(m.revocationEndpoint!)"}"#
  }

  /// An RS256 ID token; `overrides` replace or remove (`.null`) the default claims.
  func idToken(nonce: String? = nil, overrides: [String: JSONValue] = [:], now: Date = Date()) -> String {
    let issuedAt = now.timeIntervalSince1970.rounded(.down)
    var claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": .string(clientID), "sub": .string("sub-1"),
      "email": .string("ada@example.com"), "email_verified": .bool(true), "iat": .number(issuedAt),
      "exp": .number(issuedAt + 3600),
    ]
    if let nonce { claims["nonce"] = .string(nonce) }
    for (name, value) in overrides { claims[name] = value == .null ? nil : value }
    return try! JSONWebToken.signed(claims: claims, key: Self.key, kid: Self.kid)
  }
}
