import Foundation
import SignInFoundation

/// A JWK Set (RFC 7517 §5): the public keys an issuer signs with, by `kid`.
///
/// - Concurrency: `Sendable` value.
package struct JSONWebKeySet: Sendable, Equatable {
  package struct Key: Sendable, Equatable {
    package let kid: String?
    package let publicKey: RSAPublicKey

    package init(kid: String?, publicKey: RSAPublicKey) {
      self.kid = kid
      self.publicKey = publicKey
    }
  }

  package let keys: [Key]

  package init(keys: [Key]) { self.keys = keys }

  /// The smallest RSA modulus accepted from a published key set (NIST SP 800-57, RFC 7518 §3.3).
  package static let minimumRSABits = 2048

  /// Parses `{"keys":[…]}`, keeping only keys that can verify RS256 signatures: `kty` RSA,
  /// `use` absent or `sig`, `alg` absent or `RS256`, valid `n` and `e`, and a modulus of at least
  /// ``minimumRSABits``. Any other key is skipped on its own, so one bad or foreign key (an
  /// encryption key, an EC key, a 1024-bit leftover) never makes the whole set unusable.
  package init(json: Data) throws {
    struct Wire: Decodable { let keys: [[String: JSONValue]] }
    guard let wire = try? JSONDecoder().decode(Wire.self, from: json) else {
      throw TokenError.malformed("a JWK Set is a JSON object with a \"keys\" array")
    }
    keys = wire.keys.compactMap { member in
      guard member["kty"]?.string == "RSA", (member["use"]?.string ?? "sig") == "sig",
        (member["alg"]?.string ?? "RS256") == "RS256"
      else { return nil }
      let strings = member.compactMapValues(\.string)
      guard let key = try? RSAPublicKey(jwk: strings), key.bits >= Self.minimumRSABits else { return nil }
      return Key(kid: strings["kid"], publicKey: key)
    }
  }

  /// `{"keys":[{"kty","kid","use","alg","n","e"}]}`.
  package func json() throws -> Data {
    var members: [[String: String]] = []
    for key in keys {
      var jwk = try key.publicKey.jwk
      jwk["use"] = "sig"
      jwk["alg"] = "RS256"
      if let kid = key.kid { jwk["kid"] = kid }
      members.append(jwk)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(["keys": members])
  }

  /// The key for `kid`; with no `kid`, the only key when there is exactly one.
  package func key(for kid: String?) -> RSAPublicKey? {
    guard let kid else { return keys.count == 1 ? keys[0].publicKey : nil }
    return keys.first { $0.kid == kid }?.publicKey
  }
}
