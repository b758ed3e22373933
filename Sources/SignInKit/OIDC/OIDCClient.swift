import Foundation
import SignInCrypto
import SignInFoundation
import SignInHTTP
import SignInWire

/// An OAuth 2.0 / OpenID Connect client of one issuer: the token endpoint (authorization code
/// with PKCE, refresh, device code), revocation, userinfo, and ID-token verification against
/// the issuer's published keys.
///
/// - Concurrency: `Sendable` value; calls may run concurrently. Each call honours cancellation
///   of its task through the transport.
public struct OIDCClient: Sendable {
  public let metadata: OIDCProviderMetadata
  public let clientID: String
  /// Sent as `client_secret` when set (installed apps often have none).
  public let clientSecret: String?
  public let transport: any HTTPTransport
  /// Google's server client ID (the web client ID of the app's own server): the code exchange
  /// names it as `audience`, and Google answers with a server auth code for that server
  /// (``OAuthTokens/serverAuthCode``), as GoogleSignIn's `serverClientID` does.
  public var audience: String?
  let keys: JSONWebKeySetCache
  let now: @Sendable () -> Date

  public init(
    metadata: OIDCProviderMetadata, clientID: String, clientSecret: String? = nil,
    transport: any HTTPTransport = URLSessionTransport(), now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.metadata = metadata
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.transport = transport
    self.now = now
    let jwksURI = metadata.jwksURI
    keys = JSONWebKeySetCache(now: now) { issuer in
      try await JSONWebKeySet.fetch(from: jwksURI, of: issuer, transport: transport)
    }
  }

  /// The authorization URL for the code flow with PKCE, `state` and `nonce`.
  public func authorizationURL(
    redirectURI: URL, scopes: [String], state: String, nonce: String, pkce: PKCE, extra: [(String, String)] = []
  ) -> URL {
    var components = URLComponents(url: metadata.authorizationEndpoint, resolvingAgainstBaseURL: false)!
    let fields: [(String, String)] =
      [
        ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
        ("scope", scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
        ("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method),
      ] + extra
    let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
    components.percentEncodedQuery = existing + FormEncoding.encode(fields)
    return components.url!
  }

  /// Exchanges an authorization code (RFC 6749 §4.1.3, RFC 7636 §4.5).
  public func exchange(code: String, redirectURI: URL, pkce: PKCE) async throws -> OAuthTokens {
    try await tokenRequest(
      [
        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
        ("code_verifier", pkce.verifier),
      ] + (audience.map { [("audience", $0)] } ?? []))
  }

  /// New tokens from a refresh token (RFC 6749 §6). The reply may omit the refresh token:
  /// keep the old one then.
  public func refresh(_ refreshToken: String) async throws -> OAuthTokens {
    var tokens = try await tokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    if tokens.refreshToken == nil { tokens.refreshToken = refreshToken }
    return tokens
  }

  /// Revokes `token` at the issuer's revocation endpoint (RFC 7009), when it has one.
  /// - Returns: `false` when the issuer publishes no revocation endpoint.
  @discardableResult
  public func revoke(_ token: String) async throws -> Bool {
    guard let endpoint = metadata.revocationEndpoint else { return false }
    let response = try await transport.send(authenticatedForm(endpoint, [("token", token)]))
    guard response.status == 200 else {
      throw Self.oauthError(response, during: "revocation")
    }
    return true
  }

  /// The claims the userinfo endpoint returns for an access token (OIDC Core §5.3).
  public func userinfo(accessToken: String) async throws -> [String: String] {
    guard let endpoint = metadata.userinfoEndpoint else {
      throw AuthError(.misconfigured, "The issuer \(metadata.issuer) publishes no userinfo endpoint.")
    }
    let response = try await transport.send(
      HTTPRequest(method: "GET", url: endpoint, headers: [("Authorization", "Bearer \(accessToken)")]))
    guard response.status == 200,
      let fields = try? JSONDecoder().decode([String: JSONValue].self, from: response.body)
    else { throw Self.oauthError(response, during: "userinfo") }
    return Self.strings(fields)
  }

  /// Verifies an ID token from this issuer for this client: an RS256 signature by a key the
  /// issuer publishes, `iss`, `aud` (a string or an array containing the client id), `exp`
  /// and `iat` with 60 s leeway, and `nonce` when given. Returns its claims.
  ///
  /// - Throws: ``AuthError/Code/invalidCredential`` naming the check that failed.
  public func verifyIDToken(_ idToken: String, nonce: String?) async throws -> [String: String] {
    let verifier = JWTVerifier(issuer: metadata.issuer, audiences: [clientID], now: now)
    do {
      let jwt = try await keys.verify(idToken, with: verifier, nonce: nonce)
      return Self.strings(jwt.claims)
    } catch let error as TokenError {
      throw AuthError(
        .invalidCredential, "The identity provider's ID token was refused: \(error). Sign in again.")
    }
  }

  /// Claims as text: strings as they are, booleans as `true`/`false`, numbers as integers;
  /// arrays and objects are left out.
  static func strings(_ claims: [String: JSONValue]) -> [String: String] {
    claims.compactMapValues { value in
      value.string ?? value.bool.map { $0 ? "true" : "false" } ?? value.number.map { String(Int64($0)) }
    }
  }

  /// A form POST of `fields` to `endpoint`, the client identified as the issuer allows: with a
  /// secret, HTTP Basic (`client_secret_basic`, which RFC 6749 §2.3.1 asks every server to take)
  /// unless the issuer lists only `client_secret_post`; without one, `client_id` in the body.
  func authenticatedForm(_ endpoint: URL, _ fields: [(String, String)]) -> HTTPRequest {
    guard let clientSecret else { return HTTPRequest.form(endpoint, fields + [("client_id", clientID)]) }
    let methods = metadata.tokenEndpointAuthMethods
    guard methods.contains("client_secret_basic") || !methods.contains("client_secret_post") else {
      return HTTPRequest.form(endpoint, fields + [("client_id", clientID), ("client_secret", clientSecret)])
    }
    // Each part form-encoded first, then the pair in base64 (RFC 6749 §2.3.1).
    let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(clientSecret)
    var request = HTTPRequest.form(endpoint, fields)
    request.headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
    return request
  }

  func tokenRequest(_ fields: [(String, String)], endpoint: URL? = nil) async throws -> OAuthTokens {
    let response = try await transport.send(
      authenticatedForm(endpoint ?? metadata.tokenEndpoint, fields))
    return try Self.tokens(from: response)
  }

  static func tokens(from response: HTTPResponse) throws -> OAuthTokens {
    guard response.status == 200 else { throw oauthError(response, during: "the token request") }
    guard let fields = try? JSONDecoder().decode([String: JSONValue].self, from: response.body),
      let accessToken = fields["access_token"]?.string
    else {
      throw AuthError(.invalidResponse, "The identity provider's token reply could not be read. Try again.")
    }
    let reply = JSONReply(fields)
    return OAuthTokens(
      idToken: reply.string("id_token"), accessToken: accessToken, refreshToken: reply.string("refresh_token"),
      expiresIn: try reply.duration("expires_in", in: "the token request", within: JSONReply.tokenLifetimes),
      scope: reply.string("scope"), serverAuthCode: reply.string("server_code"))
  }

  /// The `error` code of an OAuth error reply (RFC 6749 §5.2), if it is one.
  static func errorCode(of response: HTTPResponse) -> String? {
    guard let fields = try? JSONDecoder().decode([String: JSONValue].self, from: response.body) else { return nil }
    return fields["error"]?.string
  }

  static func oauthError(_ response: HTTPResponse, during step: String) -> AuthError {
    let fields = (try? JSONDecoder().decode([String: JSONValue].self, from: response.body)) ?? [:]
    let code = fields["error"]?.string
    let detail = fields["error_description"]?.string.map { ": \($0)" } ?? ""
    switch code {
    case "invalid_grant"?:
      return AuthError(
        .invalidCredential, "The identity provider refused the grant\(detail). Sign in again.", serverMessage: code)
    case "invalid_client"?, "unauthorized_client"?, "invalid_scope"?, "unsupported_grant_type"?:
      return AuthError(
        .misconfigured,
        "The identity provider refused this client (\(code!))\(detail). Check the client id and secret.",
        serverMessage: code)
    case "access_denied"?:
      return AuthError(
        .userCancelled, "Access was denied at the identity provider; nothing changed.", serverMessage: code)
    case "expired_token"?:
      return AuthError(
        .timeout, "The sign-in code expired before it was approved. Start again.", serverMessage: code)
    case let code?:
      return AuthError(
        .internal, "The identity provider answered \(code)\(detail) during \(step).", serverMessage: code)
    case nil where response.status >= 500:
      return AuthError(.unavailable, "The identity provider is unavailable (HTTP \(response.status)). Try again later.")
    case nil:
      return AuthError(
        .invalidResponse, "The identity provider answered HTTP \(response.status) during \(step). Try again.")
    }
  }
}
