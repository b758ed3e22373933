import Foundation

/// A self-signed X.509 certificate for an RSA key: the form in which Google publishes the keys
/// that sign Firebase ID tokens (`{kid: PEM certificate}`), so verifiers that expect
/// certificates (firebase-admin) accept keys published this way.
///
/// - Concurrency: stateless functions, any isolation.
package enum SelfSignedCertificate {
  /// A PEM `CERTIFICATE` for `key`, with common name `commonName`, valid from `notBefore` for
  /// `lifetime` seconds, signed by `key` itself with SHA-256.
  package static func pem(
    for key: RSAPrivateKey, commonName: String, notBefore: Date, lifetime: TimeInterval
  ) throws -> String {
    try CryptoBackend.certificate(
      privateKey: key.der, commonName: commonName, notBefore: notBefore, lifetime: lifetime)
  }

  /// The public key inside a PEM certificate.
  package static func publicKey(inCertificate pem: String) throws -> RSAPublicKey {
    RSAPublicKey(uncheckedDER: try CryptoBackend.publicKey(inCertificate: pem))
  }
}
