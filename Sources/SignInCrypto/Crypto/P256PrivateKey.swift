/// A P-256 (secp256r1) private key that signs ES256: a development passkey's key.
///
/// Held as PKCS#8 DER bytes, so the value is `Sendable` and needs no cleanup; its description
/// never shows them.
///
/// - Concurrency: `Sendable` value.
package struct P256PrivateKey: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// PKCS#8 DER.
  package let der: [UInt8]

  /// The key in PKCS#8 DER, as stored.
  ///
  /// - Throws: ``CryptoError`` when the bytes are not a P-256 private key.
  package init(der: [UInt8]) throws {
    _ = try CryptoBackend.p256PublicKey(ofPrivateKey: der)
    self.der = der
  }

  private init(generated der: [UInt8]) { self.der = der }

  /// A new random key.
  package static func generate() throws -> P256PrivateKey {
    P256PrivateKey(generated: try CryptoBackend.generateP256())
  }

  package var publicKey: P256PublicKey {
    get throws { P256PublicKey(uncheckedDER: try CryptoBackend.p256PublicKey(ofPrivateKey: der)) }
  }

  /// The ES256 signature of `message`, ASN.1 DER.
  package func signES256(_ message: some Collection<UInt8>) throws -> [UInt8] {
    try CryptoBackend.signES256(privateKey: der, message: Array(message))
  }

  package var description: String { "P256PrivateKey(redacted)" }
  package var customMirror: Mirror { Mirror(self, children: []) }
}
