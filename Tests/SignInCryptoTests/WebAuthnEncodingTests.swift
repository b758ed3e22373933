import Foundation
import Testing

@testable import SignInCrypto

/// The readers WebAuthn rests on: CBOR within bounds, COSE keys of the two algorithms taken,
/// and ES256 through the crypto library, refusing one algorithm's key for the other.
@Suite struct WebAuthnEncodingTests {
  @Test func cborRoundTripsEveryKindOfItemInItsShortestForm() throws {
    let value = CBOR.map([
      .init(.text("fmt"), .text("none")), .init(.int(-7), .array([.int(0), .int(23), .int(24), .int(-257)])),
      .init(.text("big"), .unsigned(UInt64.max)), .init(.text("bytes"), .bytes([0, 1, 2])),
      .init(.text("flags"), .array([.bool(true), .bool(false), .null])), .init(.text("tag"), .tagged(24, .bytes([9]))),
    ])
    #expect(try CBOR.decode(value.encoded) == value)
    #expect(CBOR.int(23).encoded == [0x17])
    #expect(CBOR.int(24).encoded == [0x18, 24])
    #expect(CBOR.int(-7).encoded == [0x26])
    #expect(CBOR.int(-257).encoded == [0x39, 0x01, 0x00])
  }

  @Test(arguments: [
    ([UInt8]([0x9f, 0x01, 0xff]), "indefinite lengths"),
    ([0xfb] + [UInt8](repeating: 0, count: 8), "floating-point"),
    ([0x5a, 0xff, 0xff, 0xff, 0xff], "runs past the end"),
    ([0x9b] + [UInt8](repeating: 0xff, count: 8), "cannot fit"),
    ([0xa2, 0x01, 0x01, 0x01, 0x02], "repeats a key"),
    ([0x62, 0xc3, 0x28], "not UTF-8"),
    ([0x01, 0x02], "bytes follow the item"),
    ([UInt8](repeating: 0x81, count: 40) + [0x01], "deeper than 16"),
    ([0x1c], "reserved"),
  ])
  func cborRefusesWhatWebAuthnNeverSendsSayingWhy(input: [UInt8], reason: String) {
    let error = #expect(throws: CBOR.DecodingError.self) { try CBOR.decode(input) }
    #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
  }

  @Test func aMillionItemArrayHeaderCostsNothing() {
    // 0x9a: an array whose length takes four bytes, claiming far more items than bytes follow.
    #expect(throws: CBOR.DecodingError.self) { try CBOR.decode([0x9a, 0x00, 0x0f, 0x42, 0x40, 0x01]) }
  }

  @Test func anES256KeyRoundTripsThroughCOSEAndVerifiesItsSignatures() throws {
    let key = try P256PrivateKey.generate()
    let cose = COSEKey.es256(try key.publicKey)
    let read = try COSEKey(bytes: try cose.cbor.encoded)
    #expect(read == cose && read.algorithm == -7)
    let message = Array("signed".utf8)
    let signature = try key.signES256(message)
    #expect(read.verify(signature: signature, message: message))
    #expect(!read.verify(signature: signature, message: Array("altered".utf8)))
    #expect(!key.description.contains(Base64URL.encode(key.der)))
  }

  @Test func anRS256KeyIsReadFromCOSEAndAShortOneRefused() throws {
    let rsa = try RSAPrivateKey.generate(bits: 2048)
    let jwk = try rsa.publicKey.jwk
    let cose = CBOR.map([
      .init(.int(1), .int(3)), .init(.int(3), .int(-257)), .init(.int(-1), .bytes(Base64URL.decode(jwk["n"]!)!)),
      .init(.int(-2), .bytes(Base64URL.decode(jwk["e"]!)!)),
    ])
    let key = try COSEKey(cose)
    let message = Array("signed".utf8)
    #expect(key.verify(signature: try rsa.signRS256(message), message: message))
    let short = try RSAPrivateKey.generate(bits: 1024)
    let shortJWK = try short.publicKey.jwk
    let error = #expect(throws: COSEKey.FormatError.self) {
      try COSEKey(
        .map([
          .init(.int(1), .int(3)), .init(.int(3), .int(-257)),
          .init(.int(-1), .bytes(Base64URL.decode(shortJWK["n"]!)!)), .init(.int(-2), .bytes([1, 0, 1])),
        ]))
    }
    #expect(error?.reason.contains("1024 bits") == true)
  }

  /// Review V: RSA e = 1 was taken (every message is its own signature, so anyone forges an
  /// assertion), and so were moduli of any size (600 KB ones slowed every sign-in).
  @Test(arguments: [
    ([0x01] as [UInt8], "exponent of 1"), ([0x01, 0x00, 0x00] as [UInt8], "exponent of 65536"),
    ([0x01, 0x00, 0x00, 0x00, 0x01] as [UInt8], "wider than 32 bits"),
  ])
  func anRSAKeyWithAnExponentThatIsOneEvenOrHugeIsRefused(exponent: [UInt8], reason: String) throws {
    let jwk = try RSAPrivateKey.generate(bits: 2048).publicKey.jwk
    let error = #expect(throws: COSEKey.FormatError.self) {
      try COSEKey(
        .map([
          .init(.int(1), .int(3)), .init(.int(3), .int(-257)), .init(.int(-1), .bytes(Base64URL.decode(jwk["n"]!)!)),
          .init(.int(-2), .bytes(exponent)),
        ]))
    }
    #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
  }

  @Test func anRSAModulusOver4096BitsIsRefusedBeforeItIsRead() {
    let modulus = [0xC1] + [UInt8](repeating: 0xFF, count: 600_000)
    let error = #expect(throws: COSEKey.FormatError.self) {
      try COSEKey(
        .map([
          .init(.int(1), .int(3)), .init(.int(3), .int(-257)), .init(.int(-1), .bytes(modulus)),
          .init(.int(-2), .bytes([1, 0, 1])),
        ]))
    }
    #expect(error?.reason.contains("2048 to 4096 bits") == true)
  }

  /// Review V: the duplicate-key check compared each key with every earlier one (1.4 s for a
  /// 2,047-entry map); a set finds the repeat at the end of a large map all the same.
  @Test func aLargeMapIsReadAndARepeatAtItsEndIsFound() throws {
    var bytes: [UInt8] = [0xB9, 0x07, 0xFF]  // a map of 2,047 entries
    for key in 0..<2_046 { bytes += [0x19, UInt8(key >> 8), UInt8(key & 0xFF), 0x00] }
    let unique = bytes + [0x19, 0x07, 0xFE, 0x00]
    #expect(try CBOR.decode(unique).pairs?.count == 2_047)
    let repeated = bytes + [0x19, 0x00, 0x05, 0x00]
    #expect(throws: CBOR.DecodingError.self) { try CBOR.decode(repeated) }
  }

  @Test func oneAlgorithmsKeyNeverVerifiesTheOthersSignature() throws {
    let ec = try P256PrivateKey.generate()
    let message = Array("m".utf8)
    let ecSignature = try ec.signES256(message)
    // The EC key's DER, handed to the RSA verifier, is refused by type.
    #expect(!RSAPublicKey(uncheckedDER: try ec.publicKey.der).verifyRS256(signature: ecSignature, message: message))
    #expect(try ec.publicKey.verifyES256(signature: ecSignature, message: message))
  }

  @Test func aPointOffTheCurveIsRefused() {
    #expect(throws: CryptoError.self) {
      try P256PublicKey(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32))
    }
  }

  @Test func authenticatorDataRefusesBytesNoFlagAnnounces() throws {
    let base = Crypto.sha256(Array("localhost".utf8)) + [0x01, 0, 0, 0, 1]
    #expect(try AuthenticatorData(base).signCount == 1)
    let error = #expect(throws: AuthenticatorData.FormatError.self) { try AuthenticatorData(base + [0xa0]) }
    #expect(error?.reason.contains("no flag announces") == true)
    #expect(throws: AuthenticatorData.FormatError.self) { try AuthenticatorData(Array(base.prefix(36))) }
  }
}
