import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// Whether a custom token may sign in: signed by a trusted service account (or, where the
/// configuration allows, unsigned, as the emulator accepts them), for Firebase's audience, not
/// expired, with claims that use no reserved name.
///
/// - Concurrency: `Sendable` value.
struct CustomTokenCheck: Sendable {
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date

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
}
