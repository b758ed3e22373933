import Foundation

/// What a platform's cryptography library provides to SignInCrypto: hashing, MACs, random
/// bytes, key derivation, and RSA keys held as DER (PKCS#8 private, SubjectPublicKeyInfo
/// public). ``Crypto``, ``RSAPrivateKey``, ``RSAPublicKey`` and ``SelfSignedCertificate`` are
/// written once over it; nothing here is implemented by hand.
///
/// - Concurrency: stateless functions, callable from any isolation.
protocol CryptoPrimitives {
  static func sha256(_ data: [UInt8]) -> [UInt8]
  static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8]
  /// HMAC-SHA1, for one-time passwords (RFC 4226/6238), what authenticator apps compute, and
  /// imported `HMAC_SHA1` password hashes.
  static func hmacSHA1(key: [UInt8], data: [UInt8]) -> [UInt8]
  /// HMAC-SHA512, for verifying imported password hashes.
  static func hmacSHA512(key: [UInt8], data: [UInt8]) -> [UInt8]
  /// The `algorithm` digest of `data`, for verifying imported `SHA*` and `MD5` password hashes.
  static func digest(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8]
  /// AES-256 in CTR mode (`key` 32 bytes, `iv` 16), which encrypts and decrypts alike: the last
  /// step of Firebase's modified scrypt, for verifying imported password hashes.
  static func aes256CTR(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8]
  static func randomBytes(_ count: Int) throws -> [UInt8]
  /// Whether two byte strings of the same length are equal, in a time that does not depend on
  /// where they differ.
  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool
  /// Whether ``scrypt(password:salt:n:r:p:length:)`` is there.
  static var isScryptAvailable: Bool { get }
  /// scrypt (RFC 7914); a backend without it throws a ``CryptoError`` that says so.
  static func scrypt(password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int)
    throws -> [UInt8]
  /// PBKDF2 with HMAC-SHA256 (RFC 8018 §5.2).
  static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws
    -> [UInt8]
  /// PBKDF2 with HMAC-SHA1, for verifying imported `PBKDF_SHA1` password hashes only.
  static func pbkdf2SHA1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8]

  /// A new RSA key of `bits` bits, exponent 65537, as PKCS#8 DER.
  static func generateRSA(bits: Int) throws -> [UInt8]
  /// The DER of the RSA key in a PEM `PRIVATE KEY` or `PUBLIC KEY` block.
  static func der(pem: String, isPrivate: Bool) throws -> [UInt8]
  /// A PEM block for DER key bytes.
  static func pem(der: [UInt8], isPrivate: Bool) throws -> String
  /// The DER of the RSA key with these JWK members (base64url-decoded, big-endian): `n` and `e`
  /// for a public key; with `d`, `p`, `q`, `dp`, `dq`, `qi` for a private one.
  static func der(jwk members: [String: [UInt8]], isPrivate: Bool) throws -> [UInt8]
  /// The modulus `n` and exponent `e` of a public key.
  static func components(ofPublicKey der: [UInt8]) throws -> (n: [UInt8], e: [UInt8])
  /// The size of a public key's modulus in bits.
  static func bits(ofPublicKey der: [UInt8]) throws -> Int
  /// The SubjectPublicKeyInfo DER of a private key's public half.
  static func publicKey(ofPrivateKey der: [UInt8]) throws -> [UInt8]
  /// RSASSA-PKCS1-v1_5 with SHA-256.
  static func signRS256(privateKey der: [UInt8], message: [UInt8]) throws -> [UInt8]
  static func verifyRS256(publicKey der: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool
  /// A new ECDSA key on P-256 (secp256r1), as PKCS#8 DER.
  static func generateP256() throws -> [UInt8]
  /// The SubjectPublicKeyInfo DER of the P-256 point (`x`, `y`), 32 bytes each; refused when the
  /// point is not on the curve.
  static func p256PublicKey(x: [UInt8], y: [UInt8]) throws -> [UInt8]
  /// The coordinates of a P-256 public key (SubjectPublicKeyInfo DER), 32 bytes each.
  static func p256Point(ofPublicKey der: [UInt8]) throws -> (x: [UInt8], y: [UInt8])
  /// The SubjectPublicKeyInfo DER of a P-256 private key's public half.
  static func p256PublicKey(ofPrivateKey der: [UInt8]) throws -> [UInt8]
  /// ECDSA on P-256 with SHA-256; the signature ASN.1 DER (`SEQUENCE { r, s }`), as WebAuthn
  /// carries it.
  static func signES256(privateKey der: [UInt8], message: [UInt8]) throws -> [UInt8]
  static func verifyES256(publicKey der: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool
  /// A self-signed X.509 certificate over the key, as PEM.
  static func certificate(
    privateKey der: [UInt8], commonName: String, notBefore: Date, lifetime: TimeInterval
  ) throws -> String
  /// The SubjectPublicKeyInfo DER inside a PEM certificate.
  static func publicKey(inCertificate pem: String) throws -> [UInt8]
}

// The one place a backend is chosen: OpenSSL's libcrypto where the CLibcrypto module is there
// (Linux; macOS with Homebrew's openssl@3), otherwise Apple's CryptoKit and Security.
#if canImport(CLibcrypto)
  typealias CryptoBackend = OpenSSLCrypto
#elseif canImport(CryptoKit) && canImport(Security) && canImport(CommonCrypto)
  typealias CryptoBackend = AppleCrypto
#else
  #error("SignInCrypto needs OpenSSL's libcrypto (Linux: apt-get install libssl-dev) or CryptoKit.")
#endif
