import Foundation

/// An RSA private key that signs RS256 (RSASSA-PKCS1-v1_5 with SHA-256).
///
/// Held as PKCS#8 DER bytes, so the value is `Sendable` and needs no cleanup; each operation
/// hands the bytes to ``CryptoBackend``.
///
/// - Concurrency: `Sendable` value.
package struct RSAPrivateKey: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// PKCS#8 DER.
  package let der: [UInt8]

  private init(der: [UInt8]) { self.der = der }

  /// A new key of `bits` bits (2048 unless told) with public exponent 65537.
  package static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
    RSAPrivateKey(der: try CryptoBackend.generateRSA(bits: bits))
  }

  /// The key in a PEM `PRIVATE KEY` (PKCS#8) block.
  package init(pem: String) throws {
    der = try CryptoBackend.der(pem: pem, isPrivate: true)
  }

  /// The key from its JWK members (RFC 7518 §6.3): base64url `n`, `e`, `d` and the CRT members
  /// `p`, `q`, `dp`, `dq`, `qi` (PKCS#8 cannot hold a key without them).
  package init(jwk: [String: String]) throws {
    let crt = ["p", "q", "dp", "dq", "qi"]
    guard crt.allSatisfy({ jwk[$0] != nil }) else {
      throw CryptoError(
        "the private JWK lacks \(crt.filter { jwk[$0] == nil }.joined(separator: ", ")); it "
          + "needs n, e, d and the CRT members p, q, dp, dq and qi")
    }
    der = try CryptoBackend.der(
      jwk: try RSAPublicKey.members(["n", "e", "d"] + crt, of: jwk), isPrivate: true)
  }

  /// Whether `pem` is shaped like a key this type reads (a PEM `PRIVATE KEY` block holding a
  /// PKCS#8 RSA key), checked without the crypto library: cheap enough for start-up, where the
  /// key itself is loaded on first use. `false` means "parse it to find out why".
  package static func isWellFormed(pem: String) -> Bool {
    guard let der = try? PEM.decode(pem, label: "PRIVATE KEY") else { return false }
    return (try? RSAKeyEncoding.members(privateKeyInfo: der)) != nil
  }

  /// PEM `PRIVATE KEY` (PKCS#8).
  package var pem: String {
    get throws { try CryptoBackend.pem(der: der, isPrivate: true) }
  }

  /// The matching public key.
  package var publicKey: RSAPublicKey {
    get throws { RSAPublicKey(uncheckedDER: try CryptoBackend.publicKey(ofPrivateKey: der)) }
  }

  /// The RS256 signature of `message`.
  package func signRS256(_ message: some Collection<UInt8>) throws -> [UInt8] {
    try CryptoBackend.signRS256(privateKey: der, message: Array(message))
  }

  package var description: String { "RSAPrivateKey(redacted)" }
  package var customMirror: Mirror { Mirror(self, children: ["der": "redacted"]) }
}
