import Foundation
import Testing

@testable import SignInCrypto

// Compared with OpenSSL, so only where OpenSSL is the backend.
#if canImport(CLibcrypto)

  /// The platform-neutral DER, PEM and certificate encodings that the Apple backend relies on,
  /// held to the bytes OpenSSL writes and reads for the same keys.
  @Suite struct RSAKeyEncodingTests {
    static let key = try! RSAPrivateKey.generate()

    @Test func aPublicKeyFromItsIntegersIsTheSubjectPublicKeyInfoOpenSSLWrites() throws {
      let spki = try Self.key.publicKey.der
      let (n, e) = try OpenSSLCrypto.components(ofPublicKey: spki)
      #expect(RSAKeyEncoding.subjectPublicKeyInfo(pkcs1: RSAKeyEncoding.pkcs1PublicKey(n: n, e: e)) == spki)
      let read = try RSAKeyEncoding.components(subjectPublicKeyInfo: spki)
      #expect(read.n == n && read.e == e)
      #expect(RSAKeyEncoding.bitLength(n) == 2048)
    }

    @Test func aPrivateKeyFromItsIntegersIsThePKCS8OpenSSLWrites() throws {
      let members = try RSAKeyEncoding.members(privateKeyInfo: Self.key.der)
      #expect(Set(members.keys) == Set(RSAKeyEncoding.privateMembers))
      #expect(RSAKeyEncoding.privateKeyInfo(pkcs1: try RSAKeyEncoding.pkcs1PrivateKey(members)) == Self.key.der)
      #expect(try OpenSSLCrypto.der(jwk: members, isPrivate: true) == Self.key.der)
      #expect(try RSAKeyEncoding.publicKey(ofPrivateKeyInfo: Self.key.der) == Self.key.publicKey.der)
    }

    @Test func pemArmourMatchesOpenSSLBothWays() throws {
      let openSSL = try Self.key.pem
      #expect(PEM.encode(Self.key.der, label: "PRIVATE KEY") == openSSL)
      #expect(try PEM.decode(openSSL, label: "PRIVATE KEY") == Self.key.der)
      let publicPEM = try Self.key.publicKey.pem
      #expect(try PEM.decode(publicPEM, label: "PUBLIC KEY") == Self.key.publicKey.der)
      #expect(throws: CryptoError.self) { try PEM.decode(publicPEM, label: "PRIVATE KEY") }
    }

    @Test func aCertificateBuiltHereIsReadByOpenSSLAndItsSignatureVerifies() throws {
      let spki = try Self.key.publicKey.der
      let notBefore = Date(timeIntervalSince1970: 1_800_000_000)
      let signed = CertificateEncoding.toBeSigned(
        publicKey: spki, commonName: "securetoken.system.gserviceaccount.com", serial: 1_800_000_000,
        notBefore: notBefore, notAfter: notBefore.addingTimeInterval(30 * 24 * 3600))
      let signature = try Self.key.signRS256(signed)
      let pem = PEM.encode(
        CertificateEncoding.certificate(toBeSigned: signed, signature: signature), label: "CERTIFICATE")
      #expect(try OpenSSLCrypto.publicKey(inCertificate: pem) == spki)
      #expect(try Self.key.publicKey.verifyRS256(signature: signature, message: signed))
    }

    @Test func theKeyIsReadBackOutOfACertificateOpenSSLMade() throws {
      let pem = try SelfSignedCertificate.pem(
        for: Self.key, commonName: "example", notBefore: Date(timeIntervalSince1970: 1_800_000_000),
        lifetime: 3600)
      let der = try PEM.decode(pem, label: "CERTIFICATE")
      #expect(try CertificateEncoding.subjectPublicKeyInfo(certificate: der) == Self.key.publicKey.der)
    }

    @Test func timesBefore2050AreUTCTimeAndLaterOnesGeneralizedTime() {
      #expect(
        CertificateEncoding.time(Date(timeIntervalSince1970: 1_800_000_000))
          == DER.element(.utcTime, Array("270115080000Z".utf8)))
      #expect(
        CertificateEncoding.time(Date(timeIntervalSince1970: 2_600_000_000))
          == DER.element(.generalizedTime, Array("20520522141320Z".utf8)))
    }

    @Test func integersKeepTheirSignByteAndLongLengthsUseTheLongForm() {
      #expect(DER.integer([0x80]) == [0x02, 0x02, 0x00, 0x80])
      #expect(DER.integer([0x00, 0x00, 0x7F]) == [0x02, 0x01, 0x7F])
      #expect(DER.integer(0) == [0x02, 0x01, 0x00])
      let long = DER.element(.octetString, [UInt8](repeating: 1, count: 300))
      #expect(Array(long.prefix(4)) == [0x04, 0x82, 0x01, 0x2C])
    }

    /// Every cut of a valid key, and every single-byte change of its header, is refused with a
    /// CryptoError: never a crash, never a key.
    @Test func truncatedOrDamagedKeyBytesAreRefused() {
      let spki = try! Self.key.publicKey.der
      for length in 0..<spki.count {
        #expect(throws: CryptoError.self) {
          try RSAKeyEncoding.components(subjectPublicKeyInfo: Array(spki.prefix(length)))
        }
      }
      for index in 0..<24 {
        var damaged = spki
        damaged[index] ^= 0xFF
        _ = try? RSAKeyEncoding.components(subjectPublicKeyInfo: damaged)
      }
      #expect(throws: CryptoError.self) {
        // A length in the long form for a value the short form can hold.
        try RSAKeyEncoding.components(subjectPublicKeyInfo: [0x30, 0x81, 0x01, 0x00])
      }
    }
  }
#endif
