import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// An offline stand-in for Google's or Apple's sign-in: issues their style of ID token for any
/// email you choose, signed by its own key, and publishes the key as a JWK Set so an
/// ``EmbeddedBackend`` can verify the tokens exactly as it would the real IdP's.
///
/// ```swift
/// let google = try EmbeddedIdentityProvider.google()
/// let backend = try EmbeddedBackend(directory: nil, configuration: .init(trusting: [google]))
/// let token = try google.idToken(email: "ada@example.com")
/// ```
///
/// - Concurrency: `Sendable` value.
public struct EmbeddedIdentityProvider: Sendable {
  public let providerID: ProviderID
  public let issuer: String
  /// The `aud` of issued tokens: the app's client id at this IdP.
  public let clientID: String
  /// Read (or generated) on the first token or key set, not here.
  let signingKey: LazySigningKey
  let now: @Sendable () -> Date

  /// - Parameters:
  ///   - providerID: the provider the backend signs its tokens in as (`google.com`).
  ///   - issuer: the `iss` of its tokens.
  ///   - clientID: the `aud` of its tokens: the app's client id at this IdP.
  ///   - keyFile: where the IdP's signing key is kept (PEM, 0600), created on first use; `nil`
  ///     generates a new key for this instance only (RSA-2048 generation takes a few hundred
  ///     milliseconds, so keep one where it matters). Either way the key is read or made when
  ///     the first token or key set is asked for, not here: an IdP nobody signs in with costs
  ///     nothing at start-up, and a key file that cannot be used is reported then.
  ///   - now: the wall clock for `iat` and `exp`.
  public init(
    providerID: ProviderID, issuer: String, clientID: String, keyFile: URL? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    self.providerID = providerID
    self.issuer = issuer
    self.clientID = clientID
    self.now = now
    signingKey = LazySigningKey(file: keyFile) { Base64URL.encode(Crypto.sha256($0.der).prefix(9)) }
  }

  /// A Google-style IdP (`https://accounts.google.com`).
  public static func google(
    clientID: String = "signinkit-local.apps.googleusercontent.com", keyFile: URL? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws -> EmbeddedIdentityProvider {
    try EmbeddedIdentityProvider(
      providerID: .google, issuer: "https://accounts.google.com", clientID: clientID,
      keyFile: keyFile, now: now)
  }

  /// An Apple-style IdP (`https://appleid.apple.com`).
  public static func apple(
    clientID: String = "dev.signinkit.local", keyFile: URL? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) throws -> EmbeddedIdentityProvider {
    try EmbeddedIdentityProvider(
      providerID: .apple, issuer: "https://appleid.apple.com", clientID: clientID,
      keyFile: keyFile, now: now)
  }

  /// The public key as a JWK Set, as the IdP's `jwks_uri` would serve it.
  public var jwks: Data {
    get throws {
      let signing = try signingKey.get()
      return try JSONWebKeySet(keys: [.init(kid: signing.keyID, publicKey: signing.publicKey)]).json()
    }
  }

  /// A signed ID token for `email`. The subject is derived from the email, so the same email
  /// always names the same IdP account. `nonce` is put in the token as given (Apple expects the
  /// SHA-256 hex of the raw nonce; see ``appleNonceClaim(for:)``).
  public func idToken(
    email: String, name: String? = nil, nonce: String? = nil, lifetime: TimeInterval = 3600
  ) throws -> String {
    let issuedAt = now().timeIntervalSince1970.rounded(.down)
    var claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": .string(clientID),
      "sub": .string(subject(for: email)), "email": .string(email.lowercased()),
      "email_verified": .bool(true), "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
    ]
    if let name { claims["name"] = .string(name) }
    if let nonce { claims["nonce"] = .string(nonce) }
    let signing = try signingKey.get()
    return try JSONWebToken.signed(claims: claims, key: signing.key, kid: signing.keyID)
  }

  /// A one-time authorization code for `email`'s account, as Sign in with Apple returns beside
  /// the identity token: what an app passes to revoke the token when the account is deleted.
  /// Signed by the IdP's key with a random `jti`, so a backend that trusts this IdP can tell
  /// whose code it is, that it is this IdP's, and whether it was used before.
  public func authorizationCode(email: String, lifetime: TimeInterval = 300) throws -> String {
    let issuedAt = now().timeIntervalSince1970.rounded(.down)
    let claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": .string(clientID), "sub": .string(subject(for: email)),
      "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
      "jti": .string(Base64URL.encode(try Crypto.randomBytes(16))),
      "token_use": .string(Self.authorizationCodeUse),
    ]
    let signing = try signingKey.get()
    return try JSONWebToken.signed(claims: claims, key: signing.key, kid: signing.keyID)
  }

  /// The `token_use` claim that tells an authorization code from an ID token.
  static let authorizationCodeUse = "authorization_code"

  /// The stable IdP user id for `email`.
  public func subject(for email: String) -> String {
    let digest = Crypto.sha256(Array("\(issuer)|\(email.lowercased())".utf8))
    return String(digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
  }

  /// The `nonce` claim Apple puts in a token for `rawNonce`: its SHA-256, lowercase hex.
  public static func appleNonceClaim(for rawNonce: String) -> String {
    AppleProvider.hashedNonce(rawNonce)
  }
}
