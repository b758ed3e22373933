/// A P-256 (secp256r1) public key that verifies ES256 signatures: a WebAuthn credential's key.
///
/// Held as SubjectPublicKeyInfo DER bytes; each operation hands them to ``CryptoBackend``.
///
/// - Concurrency: `Sendable` value.
package struct P256PublicKey: Sendable, Hashable {
  /// SubjectPublicKeyInfo DER.
  package let der: [UInt8]

  /// DER the backend produced itself.
  init(uncheckedDER der: [UInt8]) { self.der = der }

  /// The key at the point (`x`, `y`), 32 big-endian bytes each.
  ///
  /// - Throws: ``CryptoError`` when the point is not on the curve.
  package init(x: [UInt8], y: [UInt8]) throws {
    der = try CryptoBackend.p256PublicKey(x: x, y: y)
  }

  /// The key in SubjectPublicKeyInfo DER, as stored.
  ///
  /// - Throws: ``CryptoError`` when the bytes are not a P-256 key.
  package init(der: [UInt8]) throws {
    let point = try CryptoBackend.p256Point(ofPublicKey: der)
    self.der = try CryptoBackend.p256PublicKey(x: point.x, y: point.y)
  }

  /// The point's coordinates, 32 bytes each.
  package var point: (x: [UInt8], y: [UInt8]) {
    get throws { try CryptoBackend.p256Point(ofPublicKey: der) }
  }

  /// Whether `signature` (ASN.1 DER, as WebAuthn carries it) is a valid ES256 signature of
  /// `message` under this key.
  package func verifyES256(signature: some Collection<UInt8>, message: some Collection<UInt8>) -> Bool {
    CryptoBackend.verifyES256(publicKey: der, signature: Array(signature), message: Array(message))
  }
}
