/// An RSA public key that verifies RS256 signatures.
///
/// Held as SubjectPublicKeyInfo DER bytes; each operation hands them to ``CryptoBackend``.
///
/// - Concurrency: `Sendable` value.
package struct RSAPublicKey: Sendable, Hashable {
  /// SubjectPublicKeyInfo DER.
  package let der: [UInt8]

  /// DER the backend produced itself.
  init(uncheckedDER der: [UInt8]) { self.der = der }

  /// The key in a PEM `PUBLIC KEY` block.
  package init(pem: String) throws {
    der = try CryptoBackend.der(pem: pem, isPrivate: false)
  }

  /// The key from its JWK members `n` and `e` (base64url, big-endian).
  package init(jwk: [String: String]) throws {
    der = try CryptoBackend.der(jwk: try Self.members(["n", "e"], of: jwk), isPrivate: false)
  }

  /// PEM `PUBLIC KEY`.
  package var pem: String {
    get throws { try CryptoBackend.pem(der: der, isPrivate: false) }
  }

  /// The JWK members `kty`, `n` and `e`.
  package var jwk: [String: String] {
    get throws {
      let (n, e) = try CryptoBackend.components(ofPublicKey: der)
      return ["kty": "RSA", "n": Base64URL.encode(n), "e": Base64URL.encode(e)]
    }
  }

  /// The size of the modulus in bits; 0 if the key cannot be read.
  package var bits: Int { (try? CryptoBackend.bits(ofPublicKey: der)) ?? 0 }

  /// Whether `signature` is a valid RS256 signature of `message` under this key.
  package func verifyRS256(signature: some Collection<UInt8>, message: some Collection<UInt8>)
    -> Bool
  {
    CryptoBackend.verifyRS256(publicKey: der, signature: Array(signature), message: Array(message))
  }

  /// The named JWK members, base64url-decoded.
  ///
  /// - Throws: ``CryptoError`` naming the first member that is missing, empty or not base64url.
  static func members(_ names: [String], of jwk: [String: String]) throws -> [String: [UInt8]] {
    guard jwk["kty"] == nil || jwk["kty"] == "RSA" else {
      throw CryptoError("the JWK has kty \(jwk["kty"]!); only RSA keys are supported")
    }
    var members: [String: [UInt8]] = [:]
    for name in names {
      guard let text = jwk[name], let bytes = Base64URL.decode(text), !bytes.isEmpty else {
        throw CryptoError("the JWK member \"\(name)\" is missing or not base64url")
      }
      members[name] = bytes
    }
    return members
  }
}
