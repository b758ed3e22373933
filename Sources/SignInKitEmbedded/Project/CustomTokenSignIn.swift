import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// Sign-in with a custom token, and whether a token may sign in: signed by a trusted service
/// account (or, where the configuration allows, unsigned, as the emulator accepts them), for
/// Firebase's audience, not expired, with claims that use no reserved name.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor
///   (`EmbeddedBackend.customTokens`); its async calls run on their caller's actor.
package struct CustomTokenSignIn {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer

  /// The uid and developer claims of an acceptable custom token.
  func customTokenSubject(_ token: String) throws -> (uid: String, claims: [String: JSONValue]?) {
    let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty else {
      throw AuthError(firebase: .missingCustomToken)
    }
    let payload: [String: JSONValue]
    if token.hasPrefix("{") {
      guard configuration.acceptUnsignedCustomTokens else {
        throw Self.invalidCustomToken("this backend accepts only signed custom tokens")
      }
      guard let object = (try? JSONDecoder().decode(JSONValue.self, from: Data(token.utf8)))?.object else {
        throw Self.invalidCustomToken("the token is not a JWT or a JSON object")
      }
      payload = object
    } else {
      let jwt: JSONWebToken
      do {
        jwt = try JSONWebToken(decoding: token)
      } catch {
        throw Self.invalidCustomToken("the token is not a JWT or a JSON object")
      }
      try checkCustomTokenSignature(jwt)
      guard jwt.audiences.contains(EmbeddedBackend.customTokenAudience) else {
        throw Self.invalidCustomToken("the audience is not the Identity Toolkit custom-token audience")
      }
      payload = jwt.claims
    }
    guard let uid = payload["uid"]?.string, (1...128).contains(uid.count), !FieldLimits.hasControlCharacters(uid)
    else {
      throw Self.invalidCustomToken("uid must be a string of 1 to 128 characters, none of them a control character")
    }
    // A token a tenant-aware Admin SDK made names its tenant: it signs in there only.
    if let named = payload["tenant_id"]?.string, named != configuration.tenantID {
      let here = configuration.tenantID.map { "tenant \($0)" } ?? "the project's own users"
      throw AuthError(
        firebase: .tenantIdMismatch,
        message: "The custom token is for tenant \(named), not \(here); sign in with the tenantId the token names.")
    }
    let claims = payload["claims"]?.object
    if let claims {
      // Kept with the session and put in every ID token it refreshes: Firebase's 1,000 bytes.
      let encoded = String(decoding: try JSONEncoder().encode(JSONValue.object(claims)), as: UTF8.self)
      try FieldLimits.checked(encoded, .claims, named: "The custom token's claims")
      try AccountRules.checkReserved(claims)
    }
    return (uid, claims)
  }

  private func checkCustomTokenSignature(_ jwt: JSONWebToken) throws {
    switch jwt.algorithm {
    case "none":
      guard configuration.acceptUnsignedCustomTokens else {
        throw Self.invalidCustomToken("this backend accepts only signed custom tokens")
      }
    case "RS256":
      let trusted = configuration.trustedServiceAccounts.first { $0.clientEmail == jwt.issuer }
      if trusted == nil, configuration.acceptUnsignedCustomTokens {
        // The Firebase emulator verifies no custom token's signature; an emulator's clients
        // sign with service accounts it was never given.
        configuration.unverifiedCustomTokenAccepted?(jwt.issuer ?? "(none)")
        return
      }
      guard let issuer = jwt.issuer, let account = trusted else {
        throw Self.invalidCustomToken("no trusted service account has the email \(jwt.issuer ?? "(none)")")
      }
      guard jwt.subject == issuer else { throw Self.invalidCustomToken("sub must equal iss") }
      guard let key = try? RSAPublicKey(pem: account.publicKeyPEM),
        key.verifyRS256(signature: jwt.signature, message: Array(jwt.signingInput.utf8))
      else { throw Self.invalidCustomToken("the signature does not verify") }
      guard let issuedAt = jwt.issuedAt, let expiresAt = jwt.expiresAt,
        expiresAt.timeIntervalSince(issuedAt) <= 3600
      else { throw Self.invalidCustomToken("iat and exp must be at most an hour apart") }
      guard expiresAt > now() else { throw Self.invalidCustomToken("the token has expired") }
      guard issuedAt <= now().addingTimeInterval(EmbeddedBackend.customTokenClockSkew) else {
        throw Self.invalidCustomToken("iat is in the future; check the signing server's clock")
      }
    default:
      throw Self.invalidCustomToken("the algorithm \(jwt.algorithm ?? "(none)") is not RS256")
    }
  }

  static func invalidCustomToken(_ why: String) -> AuthError {
    AuthError(firebase: .invalidCustomToken, "\(why)", message: "The custom token was refused: \(why).")
  }

  /// Signs in with a custom token your server minted (`accounts:signInWithCustomToken`),
  /// creating the account `uid` on first use. The token's `claims` are put in the ID tokens of
  /// this session, refreshed ones included; an administrator's custom claims win over them.
  ///
  /// A token is accepted when a service account in
  /// ``Configuration-swift.struct/trustedServiceAccounts`` signed it (RS256, `iss` = `sub` = its
  /// email, the custom-token audience, at most an hour long and not expired), or, with
  /// ``Configuration-swift.struct/acceptUnsignedCustomTokens``, when it is unsigned (`alg`
  /// `none`) or a bare JSON object such as `{"uid":"u1","claims":{"admin":true}}`, as the
  /// Firebase emulator accepts them.
  ///
  /// A custom token signs in without a second factor, even for an account that has one, as in
  /// Firebase: the token is the developer's server vouching for the user, and that server does
  /// its own checks.
  ///
  /// - Throws: `INVALID_CUSTOM_TOKEN : <why>`, `MISSING_CUSTOM_TOKEN`, `FORBIDDEN_CLAIM : <name>`
  ///   or `USER_DISABLED`, as Firebase does. Nothing is stored for a refused token.
  package nonisolated(nonsending) func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws
    -> SignInResponse
  {
    let (uid, claims) = try customTokenSubject(request.token)
    return try store.transaction {
      let existing = try store.account(uid: uid)
      if existing?.disabled == true {
        throw AuthError(firebase: .userDisabled)
      }
      var account =
        existing ?? EmbeddedDatabase.Account(uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now())
      if existing == nil { account.customAuth = true }
      account.lastLoginAt = now()
      try store.save(account)
      let tokens = try self.tokens.issueTokens(for: uid, provider: .custom, claims: claims)
      return SignInResponse(localID: uid, email: account.email, tokens: tokens, isNewUser: existing == nil)
    }
  }
}
