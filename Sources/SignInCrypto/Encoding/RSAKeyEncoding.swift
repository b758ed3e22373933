/// RSA keys between their PKCS#1 form and the PKCS#8 / SubjectPublicKeyInfo forms SignInCrypto
/// keeps (RFC 8017 appendix A.1, RFC 5208, RFC 5280 §4.1.2.7), and to and from their integers.
///
/// - Concurrency: stateless functions, any isolation.
enum RSAKeyEncoding {
  /// The integers of a private key, big-endian magnitudes, by JWK name.
  static let privateMembers = ["n", "e", "d", "p", "q", "dp", "dq", "qi"]

  /// `RSAPublicKey ::= SEQUENCE { modulus, publicExponent }`.
  static func pkcs1PublicKey(n: [UInt8], e: [UInt8]) -> [UInt8] {
    DER.sequence([DER.integer(n), DER.integer(e)])
  }

  /// `RSAPrivateKey ::= SEQUENCE { version 0, n, e, d, p, q, dp, dq, qi }`.
  static func pkcs1PrivateKey(_ members: [String: [UInt8]]) throws -> [UInt8] {
    var elements = [DER.integer(0)]
    for name in privateMembers {
      guard let value = members[name] else { throw CryptoError("the private key lacks \(name)") }
      elements.append(DER.integer(value))
    }
    return DER.sequence(elements)
  }

  /// `SubjectPublicKeyInfo { rsaEncryption, BIT STRING RSAPublicKey }`.
  static func subjectPublicKeyInfo(pkcs1 publicKey: [UInt8]) -> [UInt8] {
    DER.sequence([DER.algorithm(DER.rsaEncryption), DER.bitString(publicKey)])
  }

  /// `PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING RSAPrivateKey }`.
  static func privateKeyInfo(pkcs1 privateKey: [UInt8]) -> [UInt8] {
    DER.sequence([
      DER.integer(0), DER.algorithm(DER.rsaEncryption), DER.element(.octetString, privateKey),
    ])
  }

  /// The PKCS#1 public key inside a SubjectPublicKeyInfo.
  static func pkcs1(subjectPublicKeyInfo der: [UInt8]) throws -> [UInt8] {
    var outer = DER.Reader(der)
    var info = DER.Reader(try outer.read(.sequence))
    try expectRSA(try info.read(.sequence))
    let bits = try info.read(.bitString)
    guard bits.first == 0, outer.isAtEnd, info.isAtEnd else {
      throw CryptoError("the public key bytes are not a SubjectPublicKeyInfo")
    }
    return Array(bits.dropFirst())
  }

  /// The PKCS#1 private key inside a PrivateKeyInfo.
  static func pkcs1(privateKeyInfo der: [UInt8]) throws -> [UInt8] {
    var outer = DER.Reader(der)
    var info = DER.Reader(try outer.read(.sequence))
    guard try info.readUnsignedInteger() == [0] else {
      throw CryptoError("the private key bytes are not a version 0 PrivateKeyInfo")
    }
    try expectRSA(try info.read(.sequence))
    let key = try info.read(.octetString)
    guard outer.isAtEnd else { throw CryptoError("the private key bytes run on after the key") }
    return key
  }

  /// `n` and `e` of a SubjectPublicKeyInfo.
  static func components(subjectPublicKeyInfo der: [UInt8]) throws -> (n: [UInt8], e: [UInt8]) {
    var outer = DER.Reader(try pkcs1(subjectPublicKeyInfo: der))
    var key = DER.Reader(try outer.read(.sequence))
    let n = try key.readUnsignedInteger()
    let e = try key.readUnsignedInteger()
    guard key.isAtEnd, outer.isAtEnd else { throw CryptoError("the public key has extra fields") }
    return (n, e)
  }

  /// The integers of a PrivateKeyInfo, by JWK name.
  static func members(privateKeyInfo der: [UInt8]) throws -> [String: [UInt8]] {
    var outer = DER.Reader(try pkcs1(privateKeyInfo: der))
    var key = DER.Reader(try outer.read(.sequence))
    guard try key.readUnsignedInteger() == [0] else {
      throw CryptoError("the private key is not a two-prime RSA key")
    }
    var members: [String: [UInt8]] = [:]
    for name in privateMembers { members[name] = try key.readUnsignedInteger() }
    return members
  }

  /// The SubjectPublicKeyInfo of a PrivateKeyInfo's public half.
  static func publicKey(ofPrivateKeyInfo der: [UInt8]) throws -> [UInt8] {
    let members = try members(privateKeyInfo: der)
    return subjectPublicKeyInfo(pkcs1: pkcs1PublicKey(n: members["n"]!, e: members["e"]!))
  }

  /// The bit length of a big-endian magnitude.
  static func bitLength(_ magnitude: [UInt8]) -> Int {
    guard let index = magnitude.firstIndex(where: { $0 != 0 }) else { return 0 }
    return (magnitude.count - index) * 8 - magnitude[index].leadingZeroBitCount
  }

  private static func expectRSA(_ algorithm: [UInt8]) throws {
    var reader = DER.Reader(algorithm)
    guard try reader.read(.objectIdentifier) == DER.rsaEncryption else {
      throw CryptoError("the key is not an RSA key")
    }
  }
}
