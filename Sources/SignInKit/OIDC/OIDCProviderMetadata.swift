import Foundation
import SignInCrypto
import SignInFoundation

/// What an OpenID provider publishes at `/.well-known/openid-configuration` (OIDC Discovery
/// 1.0), the parts a client uses.
///
/// - Concurrency: `Sendable` value.
public struct OIDCProviderMetadata: Sendable, Equatable {
  public var issuer: String
  public var authorizationEndpoint: URL
  public var tokenEndpoint: URL
  public var jwksURI: URL
  public var userinfoEndpoint: URL?
  public var deviceAuthorizationEndpoint: URL?
  public var revocationEndpoint: URL?
  /// Token introspection (RFC 7662), which says which client an access token was issued to.
  public var introspectionEndpoint: URL?
  /// How a client with a secret may authenticate at the token endpoint
  /// (`token_endpoint_auth_methods_supported`); `client_secret_basic` when the issuer does not
  /// say, as OIDC Discovery §3 defaults it.
  public var tokenEndpointAuthMethods: [String]

  public init(
    issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, jwksURI: URL, userinfoEndpoint: URL? = nil,
    deviceAuthorizationEndpoint: URL? = nil, revocationEndpoint: URL? = nil, introspectionEndpoint: URL? = nil,
    tokenEndpointAuthMethods: [String] = ["client_secret_basic"]
  ) {
    self.tokenEndpointAuthMethods = tokenEndpointAuthMethods
    self.introspectionEndpoint = introspectionEndpoint
    self.issuer = issuer
    self.authorizationEndpoint = authorizationEndpoint
    self.tokenEndpoint = tokenEndpoint
    self.jwksURI = jwksURI
    self.userinfoEndpoint = userinfoEndpoint
    self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
    self.revocationEndpoint = revocationEndpoint
  }

  /// Google's endpoints, for when discovery is skipped.
  public static let google = OIDCProviderMetadata(
    issuer: "https://accounts.google.com",
    authorizationEndpoint: URL(string: "https://accounts.google.com/o/oauth2/v2/auth")!,
    tokenEndpoint: URL(string: "https://oauth2.googleapis.com/token")!,
    jwksURI: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!,
    userinfoEndpoint: URL(string: "https://openidconnect.googleapis.com/v1/userinfo")!,
    deviceAuthorizationEndpoint: URL(string: "https://oauth2.googleapis.com/device/code")!,
    revocationEndpoint: URL(string: "https://oauth2.googleapis.com/revoke")!,
    tokenEndpointAuthMethods: ["client_secret_post", "client_secret_basic"])

  /// Fetches and checks the discovery document of `issuer`: its `issuer` must equal the one
  /// asked for (OIDC Discovery §4.3), or tokens could be accepted from the wrong party.
  ///
  /// - Throws: ``AuthError`` with ``AuthError/Code/misconfigured`` when the document is
  ///   missing, malformed or names another issuer; transport errors as they come.
  public static func discover(issuer: String, transport: any HTTPTransport) async throws -> OIDCProviderMetadata {
    let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
    guard let url = URL(string: trimmed + "/.well-known/openid-configuration"), url.scheme != nil else {
      throw AuthError(.misconfigured, "The issuer '\(issuer)' is not a URL. Give it as https://host[/path].")
    }
    let response = try await transport.send(
      HTTPRequest(method: "GET", url: url, headers: [("Accept", "application/json")]))
    guard response.status == 200,
      let fields = try? JSONDecoder().decode([String: JSONValue].self, from: response.body)
    else {
      throw AuthError(
        .misconfigured,
        "The issuer \(issuer) has no OpenID configuration at \(url) (HTTP \(response.status)). Check the issuer URL.")
    }
    func endpoint(_ key: String) -> URL? { fields[key]?.string.flatMap(URL.init(string:)) }
    guard let published = fields["issuer"]?.string, let authorization = endpoint("authorization_endpoint"),
      let token = endpoint("token_endpoint"), let jwks = endpoint("jwks_uri")
    else {
      throw AuthError(
        .misconfigured, "The OpenID configuration of \(issuer) lacks issuer, authorization, token or JWKS endpoints.")
    }
    guard published == trimmed || published == issuer else {
      throw AuthError(
        .misconfigured,
        "The OpenID configuration at \(url) names the issuer \(published), not \(issuer). Check the issuer URL.")
    }
    return OIDCProviderMetadata(
      issuer: published, authorizationEndpoint: authorization, tokenEndpoint: token, jwksURI: jwks,
      userinfoEndpoint: endpoint("userinfo_endpoint"),
      deviceAuthorizationEndpoint: endpoint("device_authorization_endpoint"),
      revocationEndpoint: endpoint("revocation_endpoint"), introspectionEndpoint: endpoint("introspection_endpoint"),
      tokenEndpointAuthMethods: fields["token_endpoint_auth_methods_supported"]?.array?.compactMap(\.string)
        ?? ["client_secret_basic"])
  }
}
