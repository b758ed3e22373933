import Foundation

/// A self-signed X.509 v3 certificate (RFC 5280 §4.1) for an RSA key, as DER, and the
/// SubjectPublicKeyInfo read back out of one: for backends without an X.509 builder.
///
/// - Concurrency: stateless functions, any isolation.
enum CertificateEncoding {
  /// The `TBSCertificate` naming `commonName` as subject and issuer, over `publicKey`
  /// (SubjectPublicKeyInfo DER), to be signed with sha256WithRSAEncryption.
  static func toBeSigned(
    publicKey: [UInt8], commonName: String, serial: UInt64, notBefore: Date, notAfter: Date
  ) -> [UInt8] {
    let name = DER.sequence([
      DER.element(
        .set,
        DER.sequence([
          DER.element(.objectIdentifier, DER.commonName),
          DER.element(.utf8String, Array(commonName.utf8)),
        ]))
    ])
    return DER.sequence([
      DER.element(.contextZero, DER.integer(2)),  // v3
      DER.integer(serial),
      DER.algorithm(DER.sha256WithRSAEncryption),
      name,
      DER.sequence([time(notBefore), time(notAfter)]),
      name,
      publicKey,
    ])
  }

  /// The certificate: the signed part, its algorithm, and the signature.
  static func certificate(toBeSigned: [UInt8], signature: [UInt8]) -> [UInt8] {
    DER.sequence([toBeSigned, DER.algorithm(DER.sha256WithRSAEncryption), DER.bitString(signature)])
  }

  /// The SubjectPublicKeyInfo DER inside a certificate.
  static func subjectPublicKeyInfo(certificate der: [UInt8]) throws -> [UInt8] {
    var outer = DER.Reader(der)
    var certificate = DER.Reader(try outer.read(.sequence))
    var signed = DER.Reader(try certificate.read(.sequence))
    if signed.nextTag == DER.Tag.contextZero.rawValue { _ = try signed.read(.contextZero) }
    // serialNumber, signature, issuer, validity, subject, then the key.
    for _ in 0..<5 { _ = try signed.readElement() }
    let key = try signed.readElement()
    _ = try RSAKeyEncoding.components(subjectPublicKeyInfo: key)
    return key
  }

  /// UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5).
  static func time(_ date: Date) -> [UInt8] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let year = parts.year ?? 1970
    let rest = [parts.month, parts.day, parts.hour, parts.minute, parts.second]
      .map { String(format: "%02d", $0 ?? 0) }.joined()
    if (1950..<2050).contains(year) {
      return DER.element(.utcTime, Array((String(format: "%02d", year % 100) + rest + "Z").utf8))
    }
    return DER.element(.generalizedTime, Array((String(format: "%04d", year) + rest + "Z").utf8))
  }
}
