import Foundation

/// Checks a JWT the way OIDC Core §3.1.3.7 and Firebase require: RS256 only, a signature by a
/// published key, the expected issuer and audience, `azp` (required when `aud` names several
/// clients, and one of ours when present), `exp`, a required `iat` and `nbf` when present,
/// each within a small leeway, and the nonce.
///
/// - Concurrency: `Sendable` value.
package struct JWTVerifier: Sendable {
  package var issuer: String
  /// Accepted audiences; the token's `aud` (a string or an array) must contain one.
  package var audiences: Set<String>
  /// Clock skew tolerated on `exp` and `iat`.
  package var leeway: TimeInterval
  package var now: @Sendable () -> Date

  package init(
    issuer: String, audiences: Set<String>, leeway: TimeInterval = 60,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.issuer = issuer
    self.audiences = audiences
    self.leeway = leeway
    self.now = now
  }

  /// The decoded token when every check passes.
  /// - Parameter nonce: when set, the token's `nonce` claim must equal it.
  /// - Throws: ``TokenError`` naming the first check that failed.
  package func verify(_ token: String, keys: JSONWebKeySet, nonce: String? = nil) throws
    -> JSONWebToken
  {
    let jwt = try JSONWebToken(decoding: token)
    try checkSignature(jwt, keys: keys)
    try checkClaims(jwt, nonce: nonce)
    return jwt
  }

  func checkSignature(_ jwt: JSONWebToken, keys: JSONWebKeySet) throws {
    guard jwt.algorithm == "RS256" else {
      throw TokenError.unsupportedAlgorithm(jwt.algorithm ?? "(none)")
    }
    guard let key = keys.key(for: jwt.keyID) else { throw TokenError.unknownKey(jwt.keyID) }
    guard key.verifyRS256(signature: jwt.signature, message: Array(jwt.signingInput.utf8)) else {
      throw TokenError.badSignature
    }
  }

  func checkClaims(_ jwt: JSONWebToken, nonce: String?) throws {
    guard jwt.issuer == issuer else { throw TokenError.wrongIssuer(jwt.issuer) }
    guard jwt.audiences.contains(where: audiences.contains) else {
      throw TokenError.wrongAudience(jwt.audiences)
    }
    let party = jwt.claims["azp"]?.string
    if jwt.audiences.count > 1, party == nil { throw TokenError.missingClaim("azp") }
    if let party, !audiences.contains(party) { throw TokenError.wrongAuthorizedParty(party) }
    let now = now()
    guard let expiresAt = jwt.expiresAt, expiresAt.addingTimeInterval(leeway) > now else {
      throw TokenError.expired
    }
    guard let issuedAt = jwt.issuedAt else { throw TokenError.missingClaim("iat") }
    if issuedAt.addingTimeInterval(-leeway) > now { throw TokenError.issuedInTheFuture }
    if let notBefore = jwt.claims["nbf"]?.number,
      Date(timeIntervalSince1970: notBefore).addingTimeInterval(-leeway) > now
    {
      throw TokenError.notYetValid
    }
    if let nonce, jwt.claims["nonce"]?.string != nonce { throw TokenError.nonceMismatch }
  }
}
