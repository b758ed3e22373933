/// Why a JWT was refused. Each case says which check failed.
///
/// - Concurrency: `Sendable` value.
package enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
  case malformed(String)
  /// Only RS256 is accepted: `none` and HMAC algorithms are refused.
  case unsupportedAlgorithm(String)
  case unknownKey(String?)
  case badSignature
  case wrongIssuer(String?)
  case wrongAudience([String])
  case expired
  case issuedInTheFuture
  /// `nbf` is still ahead (beyond the leeway).
  case notYetValid
  /// A required claim (`iat`, or `azp` when `aud` names several clients) is missing.
  case missingClaim(String)
  /// `azp` names a client other than this one.
  case wrongAuthorizedParty(String)
  case nonceMismatch

  package var description: String {
    switch self {
    case .malformed(let detail): "malformed token: \(detail)"
    case .unsupportedAlgorithm(let alg): "algorithm \(alg) is not accepted; only RS256 is"
    case .unknownKey(let kid): "no published key matches kid \(kid ?? "(none)")"
    case .badSignature: "the signature does not verify"
    case .wrongIssuer(let issuer): "unexpected issuer \(issuer ?? "(none)")"
    case .wrongAudience(let audiences): "unexpected audience \(audiences)"
    case .expired: "the token has expired"
    case .issuedInTheFuture: "the token is issued in the future"
    case .notYetValid: "the token is not valid yet (nbf)"
    case .missingClaim(let claim): "the token has no \(claim) claim"
    case .wrongAuthorizedParty(let party): "the token was issued to another client (azp \(party))"
    case .nonceMismatch: "the nonce does not match the one sent"
    }
  }
}
