/// A credential public key in COSE form (RFC 9052 §7, RFC 9053), as WebAuthn authenticators
/// report it: ES256 on P-256 (`kty` 2, `alg` -7, `crv` 1) or RS256 (`kty` 3, `alg` -257).
/// Signatures are checked by the crypto library; nothing here does arithmetic on keys.
///
/// - Concurrency: `Sendable` value.
package enum COSEKey: Sendable, Hashable {
  case es256(P256PublicKey)
  case rs256(RSAPublicKey)

  /// The COSE algorithm numbers this type reads, most preferred first.
  package static let algorithms: [Int64] = [-7, -257]

  /// What is wrong with a COSE key.
  ///
  /// - Concurrency: `Sendable` value.
  package struct FormatError: Error, Equatable, CustomStringConvertible {
    package let reason: String
    package var description: String { "COSE key: \(reason)" }
  }

  /// The key in `cbor`, a COSE_Key map.
  ///
  /// - Throws: ``FormatError`` for another key type, algorithm or curve, a missing member, or
  ///   a point off the curve.
  package init(_ cbor: CBOR) throws(FormatError) {
    guard cbor.pairs != nil else { throw FormatError(reason: "not a map") }
    switch (cbor[1]?.int, cbor[3]?.int) {
    case (2, -7):
      guard cbor[-1]?.int == 1 else { throw FormatError(reason: "an EC2 key on a curve other than P-256") }
      guard let x = cbor[-2]?.bytes, let y = cbor[-3]?.bytes, x.count == 32, y.count == 32 else {
        throw FormatError(reason: "an EC2 key without 32-byte x and y")
      }
      do {
        self = .es256(try P256PublicKey(x: x, y: y))
      } catch {
        throw FormatError(reason: "the point is not on P-256")
      }
    case (3, -257):
      guard let n = cbor[-1]?.bytes, let e = cbor[-2]?.bytes, !n.isEmpty, !e.isEmpty else {
        throw FormatError(reason: "an RSA key without n and e")
      }
      try Self.checkRSASize(n: n, e: e)
      let key: RSAPublicKey
      do {
        key = try RSAPublicKey(jwk: ["kty": "RSA", "n": Base64URL.encode(n), "e": Base64URL.encode(e)])
      } catch {
        throw FormatError(reason: "n and e are not an RSA key")
      }
      guard Self.rsaBits.contains(key.bits) else {
        throw FormatError(reason: "an RSA key of \(key.bits) bits (2048 to 4096)")
      }
      self = .rs256(key)
    case (let kty, let alg):
      throw FormatError(
        reason: "key type \(kty.map(String.init) ?? "none") with algorithm \(alg.map(String.init) ?? "none"); "
          + "ES256 (-7) on P-256 and RS256 (-257) are accepted")
    }
  }

  /// The RSA moduli taken, in bits: below 2048 is weak, above 4096 costs every sign-in time
  /// for no strength an authenticator needs.
  package static let rsaBits = 2048...4096

  /// Refuses an RSA key by its bytes before the crypto library reads it: a modulus longer than
  /// 4096 bits, or a public exponent that is even, 1, or wider than 32 bits (with e = 1 every
  /// "signature" is its own message, so anyone could forge one).
  private static func checkRSASize(n: [UInt8], e: [UInt8]) throws(FormatError) {
    let modulus = n.drop { $0 == 0 }
    guard modulus.count <= rsaBits.upperBound / 8 else {
      throw FormatError(reason: "an RSA modulus of \(modulus.count) bytes (2048 to 4096 bits)")
    }
    let exponent = e.drop { $0 == 0 }
    guard exponent.count <= 4 else { throw FormatError(reason: "an RSA exponent wider than 32 bits") }
    let value = exponent.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard value > 1, value % 2 == 1 else {
      throw FormatError(reason: "an RSA exponent of \(value); it must be odd and greater than 1 (65537)")
    }
  }

  /// The key in `bytes`, one CBOR COSE_Key and nothing after it.
  package init(bytes: [UInt8]) throws(FormatError) {
    let cbor: CBOR
    do {
      cbor = try CBOR.decode(bytes)
    } catch {
      throw FormatError(reason: "\(error)")
    }
    try self.init(cbor)
  }

  /// The COSE algorithm number.
  package var algorithm: Int64 {
    switch self {
    case .es256: -7
    case .rs256: -257
    }
  }

  /// The key as a COSE_Key map.
  package var cbor: CBOR {
    get throws {
      switch self {
      case .es256(let key):
        let (x, y) = try key.point
        return .map([
          .init(.int(1), .int(2)), .init(.int(3), .int(-7)), .init(.int(-1), .int(1)),
          .init(.int(-2), .bytes(x)), .init(.int(-3), .bytes(y)),
        ])
      case .rs256(let key):
        let jwk = try key.jwk
        return .map([
          .init(.int(1), .int(3)), .init(.int(3), .int(-257)),
          .init(.int(-1), .bytes(Base64URL.decode(jwk["n"] ?? "") ?? [])),
          .init(.int(-2), .bytes(Base64URL.decode(jwk["e"] ?? "") ?? [])),
        ])
      }
    }
  }

  /// Whether `signature` is this key's signature of `message`.
  package func verify(signature: [UInt8], message: [UInt8]) -> Bool {
    switch self {
    case .es256(let key): key.verifyES256(signature: signature, message: message)
    case .rs256(let key): key.verifyRS256(signature: signature, message: message)
    }
  }
}
