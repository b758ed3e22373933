import Foundation
import SignInConcurrency
import SignInCrypto
import Testing

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

@Suite struct CryptoTests {
  // NIST FIPS 180-2 examples.
  @Test(arguments: [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func sha256MatchesNISTVectors(message: String, digest: String) {
    #expect(hex(Crypto.sha256(Array(message.utf8))) == digest)
  }

  // The FIPS 180-2 and RFC 1321 digests of "abc"; rounds digest the digest.
  @Test func legacyDigestsMatchTheirPublishedVectorsAndIterate() {
    let abc = Array("abc".utf8)
    #expect(hex(Crypto.digest(.md5, abc)) == "900150983cd24fb0d6963f7d28e17f72")
    #expect(hex(Crypto.digest(.sha1, abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      hex(Crypto.digest(.sha512, abc))
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
    #expect(hex(Crypto.digest(.sha256, abc, rounds: 2)) == hex(Crypto.sha256(Crypto.sha256(abc))))
    #expect(Crypto.digest(.sha256, abc, rounds: 0) == Crypto.sha256(abc), "0 rounds is one digest")
  }

  @Test func sha256OfOneMillionAsMatchesNIST() {
    let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      hex(Crypto.sha256(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  // RFC 4231 test cases 1, 2 and 6.
  @Test func hmacSHA256MatchesRFC4231() {
    #expect(
      hex(Crypto.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8)))
        == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    #expect(
      hex(Crypto.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8)))
        == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    #expect(
      hex(
        Crypto.hmacSHA256(
          key: [UInt8](repeating: 0xaa, count: 131),
          data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
        == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  // RFC 7914 §12, the first two vectors.
  @Test func scryptMatchesRFC7914() throws {
    #expect(
      hex(try Crypto.scrypt(password: [], salt: [], n: 16, r: 1, p: 1, length: 64))
        == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
    #expect(
      hex(
        try Crypto.scrypt(
          password: Array("password".utf8), salt: Array("NaCl".utf8), n: 1024, r: 8, p: 16,
          length: 64))
        == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
  }

  // RFC 7914 §11: PBKDF2-HMAC-SHA256, the building block of scrypt and the password hash on
  // platforms without scrypt.
  @Test func pbkdf2SHA256MatchesRFC7914() throws {
    #expect(
      hex(
        try Crypto.pbkdf2SHA256(
          password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64))
        == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    #expect(
      hex(
        try Crypto.pbkdf2SHA256(
          password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000,
          length: 64))
        == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
        + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
  }

  @Test func pbkdf2RefusesZeroIterationsOrLength() {
    #expect(throws: CryptoError.self) {
      try Crypto.pbkdf2SHA256(password: [1], salt: [2], iterations: 0, length: 32)
    }
    #expect(throws: CryptoError.self) {
      try Crypto.pbkdf2SHA256(password: [1], salt: [2], iterations: 1, length: 0)
    }
  }

  @Test func scryptRejectsACostThatIsNotAPowerOfTwo() {
    #expect(throws: CryptoError.self) {
      try Crypto.scrypt(password: [1], salt: [2], n: 1000, r: 8, p: 1, length: 32)
    }
  }

  // RFC 7636 appendix B.
  @Test func pkceChallengeMatchesRFC7636() {
    #expect(
      Crypto.pkceChallenge(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
  }

  /// Review V: phone codes were `byte % 10`, which makes 0–5 likelier than 6–9. Every byte
  /// value once gives each digit equally often; the six bytes that would favour 0–5 are drawn
  /// again.
  @Test func randomDigitsComeUpEquallyOften() throws {
    // Each draw gives every byte value once: 250 usable, 6 that `% 10` would have counted.
    let digits = try Crypto.randomDigits(256) { _ in Array(0...255) }
    #expect(digits.count == 256)
    let balanced = digits.prefix(250)
    let counts = Dictionary(grouping: balanced, by: { $0 }).mapValues(\.count)
    #expect(counts.count == 10)
    #expect(counts.values.allSatisfy { $0 == 25 }, "\(counts)")
    #expect(try Crypto.randomDigits(6).allSatisfy(\.isASCII) && Crypto.randomDigits(6).count == 6)
  }

  @Test func randomBytesHaveTheLengthAskedAndDiffer() throws {
    let first = try Crypto.randomBytes(32)
    let second = try Crypto.randomBytes(32)
    #expect(first.count == 32)
    #expect(first != second)
  }

  @Test func base64URLRoundTripsWithoutPadding() {
    let bytes: [UInt8] = [0xfb, 0xff, 0xbf, 0x01]
    #expect(Base64URL.encode(bytes) == "-_-_AQ")
    #expect(Base64URL.decode("-_-_AQ") == bytes)
    #expect(Base64URL.decode("-_-_AQ==") == bytes)
    #expect(Base64URL.decode("not base64!") == nil)
    // Padding only at the end.
    #expect(Base64URL.decode("-_=-_AQ") == nil)
    for count in 0..<8 {
      let sample = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 67 &+ 250) }
      #expect(Base64URL.decode(Base64URL.encode(sample)) == sample)
    }
  }
}

@Suite struct RSAKeyTests {
  // RFC 7515 appendix A.2: an RS256 JWS with a published key and signature.
  static let rfc7515Key = [
    "kty": "RSA",
    "n": "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddx"
      + "HmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMs"
      + "D1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSH"
      + "SXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdV"
      + "MTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8"
      + "NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
    "e": "AQAB",
    "d": "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97I"
      + "jlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0"
      + "BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn"
      + "439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYT"
      + "CBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLh"
      + "BOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ",
    "p": "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdi"
      + "YrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPG"
      + "BY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc",
    "q": "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxa"
      + "ewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA"
      + "-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc",
    "dp": "BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3Q"
      + "CLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb"
      + "34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0",
    "dq": "h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa"
      + "7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-ky"
      + "NlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU",
    "qi": "IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2o"
      + "y26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLU"
      + "W0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U",
  ]
  static let rfc7515SigningInput =
    "eyJhbGciOiJSUzI1NiJ9"
    + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFt"
    + "cGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
  static let rfc7515Signature =
    "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7"
    + "AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4"
    + "BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K"
    + "0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqv"
    + "hJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrB"
    + "p0igcN_IoypGlUPQGe77Rw"

  @Test func rs256SignatureMatchesRFC7515AppendixA2() throws {
    let key = try RSAPrivateKey(jwk: Self.rfc7515Key)
    let signature = try key.signRS256(Array(Self.rfc7515SigningInput.utf8))
    #expect(Base64URL.encode(signature) == Self.rfc7515Signature)
  }

  @Test func rfc7515SignatureVerifiesWithThePublicJWKAndFailsWhenTampered() throws {
    let publicKey = try RSAPublicKey(jwk: ["n": Self.rfc7515Key["n"]!, "e": "AQAB"])
    let signature = try #require(Base64URL.decode(Self.rfc7515Signature))
    let input = Array(Self.rfc7515SigningInput.utf8)
    #expect(publicKey.verifyRS256(signature: signature, message: input))
    #expect(!publicKey.verifyRS256(signature: signature, message: input + [0x20]))
    var flipped = signature
    flipped[10] ^= 0x01
    #expect(!publicKey.verifyRS256(signature: flipped, message: input))
  }

  // RFC 7517: a public key round-trips through its JWK members unchanged.
  @Test func publicJWKRoundTrips() throws {
    let publicKey = try RSAPublicKey(jwk: ["kty": "RSA", "n": Self.rfc7515Key["n"]!, "e": "AQAB"])
    let jwk = try publicKey.jwk
    #expect(jwk == ["kty": "RSA", "n": Self.rfc7515Key["n"]!, "e": "AQAB"])
    #expect(try RSAPrivateKey(jwk: Self.rfc7515Key).publicKey == publicKey)
  }

  @Test func generatedKeySignsVerifiesAndRoundTripsThroughPEM() throws {
    let key = try RSAPrivateKey.generate()
    let publicKey = try key.publicKey
    let n = try #require(Base64URL.decode(try publicKey.jwk["n"]!))
    #expect(n.count == 256)  // 2048 bits
    let message = Array("header.payload".utf8)
    let signature = try key.signRS256(message)
    #expect(publicKey.verifyRS256(signature: signature, message: message))
    let pem = try key.pem
    #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    #expect(try RSAPrivateKey(pem: pem) == key)
    let publicPEM = try publicKey.pem
    #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
    #expect(try RSAPublicKey(pem: publicPEM) == publicKey)
    #expect(!"\(key)".contains("BEGIN"))
  }

  @Test func badKeyMaterialIsReportedWithWhatToPass() {
    let error = #expect(throws: CryptoError.self) { try RSAPublicKey(pem: "not a key") }
    #expect(error?.message.contains("PEM PUBLIC KEY") == true)
    let jwkError = #expect(throws: CryptoError.self) { try RSAPublicKey(jwk: ["n": "***", "e": "AQAB"]) }
    #expect(jwkError?.message.contains("\"n\"") == true)
    #expect(throws: CryptoError.self) { try RSAPublicKey(jwk: ["kty": "EC", "n": "AQAB", "e": "AQAB"]) }
    var withoutCRT = Self.rfc7515Key
    withoutCRT["p"] = nil
    let crtError = #expect(throws: CryptoError.self) { try RSAPrivateKey(jwk: withoutCRT) }
    #expect(crtError?.message.contains("p, q, dp, dq and qi") == true)
  }
}
