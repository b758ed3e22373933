#if canImport(CryptoKit) && canImport(Security) && canImport(CommonCrypto)
  import CommonCrypto
  import CryptoKit
  import Foundation
  import Security

  /// ``CryptoPrimitives`` over Apple's libraries: CryptoKit for SHA-256 and HMAC, Security for
  /// random bytes and RSA (`SecKey`, which speaks PKCS#1; ``RSAKeyEncoding`` converts), and
  /// CommonCrypto for PBKDF2. There is no scrypt here: password hashes made on these platforms
  /// use PBKDF2-HMAC-SHA256, and the hash records which algorithm made it.
  ///
  /// - Concurrency: stateless functions, callable from any isolation.
  enum AppleCrypto: CryptoPrimitives {
    static func sha256(_ data: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: data)) }

    static func digest(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8] {
      switch algorithm {
      case .md5: Array(Insecure.MD5.hash(data: data))
      case .sha1: Array(Insecure.SHA1.hash(data: data))
      case .sha256: Array(SHA256.hash(data: data))
      case .sha512: Array(SHA512.hash(data: data))
      }
    }

    static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
      Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
      guard a.count == b.count else { return false }
      return a.withUnsafeBytes { a in
        b.withUnsafeBytes { b in timingsafe_bcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
      }
    }

    static func hmacSHA1(key: [UInt8], data: [UInt8]) -> [UInt8] {
      Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    static func hmacSHA512(key: [UInt8], data: [UInt8]) -> [UInt8] {
      Array(HMAC<SHA512>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    static func aes256CTR(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
      guard key.count == 32, iv.count == 16 else {
        throw CryptoError("AES-256-CTR needs a 32-byte key and a 16-byte IV")
      }
      var cryptor: CCCryptorRef?
      let created = CCCryptorCreateWithMode(
        CCOperation(kCCEncrypt), CCMode(kCCModeCTR), CCAlgorithm(kCCAlgorithmAES), CCPadding(ccNoPadding), iv, key,
        key.count, nil, 0, 0, CCModeOptions(kCCModeOptionCTR_BE), &cryptor)
      guard created == Int32(kCCSuccess), let cryptor else {
        throw CryptoError("CCCryptorCreateWithMode failed (\(created))")
      }
      defer { CCCryptorRelease(cryptor) }
      var output = [UInt8](repeating: 0, count: data.count)
      var moved = 0
      let status = CCCryptorUpdate(cryptor, data, data.count, &output, output.count, &moved)
      guard status == Int32(kCCSuccess) else { throw CryptoError("CCCryptorUpdate failed (\(status))") }
      return Array(output.prefix(moved))
    }

    static func randomBytes(_ count: Int) throws -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: count)
      guard SecRandomCopyBytes(kSecRandomDefault, count, &bytes) == errSecSuccess else {
        throw CryptoError("SecRandomCopyBytes failed")
      }
      return bytes
    }

    static let isScryptAvailable = false

    static func scrypt(
      password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int
    ) throws -> [UInt8] {
      throw CryptoError(
        "scrypt is not available on this platform; password hashes made here use "
          + "PBKDF2-HMAC-SHA256. A scrypt hash from a Linux backend is verified only there.")
    }

    static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws
      -> [UInt8]
    {
      try pbkdf2(kCCPRFHmacAlgSHA256, password: password, salt: salt, iterations: iterations, length: length)
    }

    static func pbkdf2SHA1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
      try pbkdf2(kCCPRFHmacAlgSHA1, password: password, salt: salt, iterations: iterations, length: length)
    }

    private static func pbkdf2(
      _ prf: Int, password: [UInt8], salt: [UInt8], iterations: Int, length: Int
    ) throws -> [UInt8] {
      var key = [UInt8](repeating: 0, count: length)
      let status = password.withUnsafeBytes { password in
        CCKeyDerivationPBKDF(
          CCPBKDFAlgorithm(kCCPBKDF2), password.bindMemory(to: CChar.self).baseAddress,
          password.count, salt, salt.count, CCPseudoRandomAlgorithm(prf), UInt32(iterations), &key, length)
      }
      guard status == Int32(kCCSuccess) else {
        throw CryptoError("CCKeyDerivationPBKDF failed (\(status))")
      }
      return key
    }

    // MARK: - RSA keys

    static func generateRSA(bits: Int) throws -> [UInt8] {
      let attributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits,
      ]
      var error: Unmanaged<CFError>?
      guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
        throw failure("RSA-\(bits) key generation", error)
      }
      return RSAKeyEncoding.privateKeyInfo(pkcs1: try external(key))
    }

    static func der(pem: String, isPrivate: Bool) throws -> [UInt8] {
      let der = try PEM.decode(pem, label: isPrivate ? "PRIVATE KEY" : "PUBLIC KEY")
      // Refuse what Security would refuse later, now, with the reason.
      _ = try secKey(der: der, isPrivate: isPrivate)
      return der
    }

    static func pem(der: [UInt8], isPrivate: Bool) throws -> String {
      PEM.encode(der, label: isPrivate ? "PRIVATE KEY" : "PUBLIC KEY")
    }

    static func der(jwk members: [String: [UInt8]], isPrivate: Bool) throws -> [UInt8] {
      let der: [UInt8]
      if isPrivate {
        der = RSAKeyEncoding.privateKeyInfo(pkcs1: try RSAKeyEncoding.pkcs1PrivateKey(members))
      } else {
        guard let n = members["n"], let e = members["e"] else {
          throw CryptoError("the JWK needs n and e")
        }
        der = RSAKeyEncoding.subjectPublicKeyInfo(pkcs1: RSAKeyEncoding.pkcs1PublicKey(n: n, e: e))
      }
      _ = try secKey(der: der, isPrivate: isPrivate)
      return der
    }

    static func components(ofPublicKey der: [UInt8]) throws -> (n: [UInt8], e: [UInt8]) {
      try RSAKeyEncoding.components(subjectPublicKeyInfo: der)
    }

    static func bits(ofPublicKey der: [UInt8]) throws -> Int {
      RSAKeyEncoding.bitLength(try RSAKeyEncoding.components(subjectPublicKeyInfo: der).n)
    }

    static func publicKey(ofPrivateKey der: [UInt8]) throws -> [UInt8] {
      try RSAKeyEncoding.publicKey(ofPrivateKeyInfo: der)
    }

    static func signRS256(privateKey der: [UInt8], message: [UInt8]) throws -> [UInt8] {
      let key = try secKey(der: der, isPrivate: true)
      var error: Unmanaged<CFError>?
      guard
        let signature = SecKeyCreateSignature(
          key, .rsaSignatureMessagePKCS1v15SHA256, Data(message) as CFData, &error)
      else { throw failure("RS256 signing", error) }
      return Array(signature as Data)
    }

    static func verifyRS256(publicKey der: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool {
      guard let key = try? secKey(der: der, isPrivate: false) else { return false }
      return SecKeyVerifySignature(
        key, .rsaSignatureMessagePKCS1v15SHA256, Data(message) as CFData, Data(signature) as CFData,
        nil)
    }

    // MARK: - P-256 keys

    static func generateP256() throws -> [UInt8] {
      Array(P256.Signing.PrivateKey().derRepresentation)
    }

    static func p256PublicKey(x: [UInt8], y: [UInt8]) throws -> [UInt8] {
      guard x.count == 32, y.count == 32 else { throw CryptoError("a P-256 point has 32-byte coordinates") }
      do {
        return Array(try P256.Signing.PublicKey(x963Representation: [4] + x + y).derRepresentation)
      } catch {
        throw CryptoError("the point is not on the P-256 curve")
      }
    }

    static func p256Point(ofPublicKey der: [UInt8]) throws -> (x: [UInt8], y: [UInt8]) {
      let point = Array(try P256.Signing.PublicKey(derRepresentation: der).x963Representation)
      guard point.count == 65 else { throw CryptoError("the key is not an uncompressed P-256 point") }
      return (Array(point[1..<33]), Array(point[33..<65]))
    }

    static func p256PublicKey(ofPrivateKey der: [UInt8]) throws -> [UInt8] {
      Array(try P256.Signing.PrivateKey(derRepresentation: der).publicKey.derRepresentation)
    }

    static func signES256(privateKey der: [UInt8], message: [UInt8]) throws -> [UInt8] {
      let key = try P256.Signing.PrivateKey(derRepresentation: der)
      return Array(try key.signature(for: message).derRepresentation)
    }

    static func verifyES256(publicKey der: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool {
      guard let key = try? P256.Signing.PublicKey(derRepresentation: der),
        let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature)
      else { return false }
      return key.isValidSignature(signature, for: message)
    }

    // MARK: - Certificates

    static func certificate(
      privateKey der: [UInt8], commonName: String, notBefore: Date, lifetime: TimeInterval
    ) throws -> String {
      let signed = CertificateEncoding.toBeSigned(
        publicKey: try publicKey(ofPrivateKey: der), commonName: commonName,
        serial: UInt64(max(1, notBefore.timeIntervalSince1970)), notBefore: notBefore,
        notAfter: notBefore.addingTimeInterval(lifetime))
      let signature = try signRS256(privateKey: der, message: signed)
      return PEM.encode(
        CertificateEncoding.certificate(toBeSigned: signed, signature: signature),
        label: "CERTIFICATE")
    }

    static func publicKey(inCertificate pem: String) throws -> [UInt8] {
      try CertificateEncoding.subjectPublicKeyInfo(
        certificate: try PEM.decode(pem, label: "CERTIFICATE"))
    }

    // MARK: - SecKey

    /// A `SecKey` from PKCS#8 (private) or SubjectPublicKeyInfo (public) DER.
    private static func secKey(der: [UInt8], isPrivate: Bool) throws -> SecKey {
      let pkcs1 =
        isPrivate
        ? try RSAKeyEncoding.pkcs1(privateKeyInfo: der)
        : try RSAKeyEncoding.pkcs1(subjectPublicKeyInfo: der)
      let attributes: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
        kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic,
      ]
      var error: Unmanaged<CFError>?
      guard let key = SecKeyCreateWithData(Data(pkcs1) as CFData, attributes as CFDictionary, &error)
      else { throw failure("reading the RSA key", error) }
      return key
    }

    /// The PKCS#1 bytes of a key.
    private static func external(_ key: SecKey) throws -> [UInt8] {
      var error: Unmanaged<CFError>?
      guard let data = SecKeyCopyExternalRepresentation(key, &error) else {
        throw failure("exporting the RSA key", error)
      }
      return Array(data as Data)
    }

    private static func failure(_ what: String, _ error: Unmanaged<CFError>?) -> CryptoError {
      let reason = error.map { String(describing: $0.takeRetainedValue()) } ?? "no reason given"
      return CryptoError("\(what) failed: \(reason)")
    }
  }
#endif
