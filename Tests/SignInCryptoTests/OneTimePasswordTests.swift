import Foundation
import SignInCrypto
import Testing

@Suite struct OneTimePasswordTests {
  /// RFC 4226 Appendix D: the HOTP values for the ASCII secret "12345678901234567890".
  @Test func hotpMatchesTheRFC4226Vectors() {
    let secret = Array("12345678901234567890".utf8)
    let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
    #expect((0..<10).map { OneTimePassword.hotp(secret: secret, counter: UInt64($0)) } == expected)
  }

  /// RFC 6238 Appendix B, the SHA-1 rows (eight digits).
  @Test(arguments: [
    (59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
    (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
  ])
  func totpMatchesTheRFC6238Vectors(seconds: Double, code: String) {
    let secret = Array("12345678901234567890".utf8)
    #expect(OneTimePassword.totp(secret: secret, at: Date(timeIntervalSince1970: seconds), digits: 8) == code)
  }

  @Test func aCodeMatchesOneStepEitherSideAndNoFurther() {
    let secret = Array("12345678901234567890".utf8)
    let now = Date(timeIntervalSince1970: 1_111_111_111)
    let code = OneTimePassword.totp(secret: secret, at: now)
    #expect(OneTimePassword.matches(code, secret: secret, at: now.addingTimeInterval(30)))
    #expect(OneTimePassword.matches(code, secret: secret, at: now.addingTimeInterval(-30)))
    #expect(!OneTimePassword.matches(code, secret: secret, at: now.addingTimeInterval(90)))
  }

  /// RFC 4648 §10.
  @Test func base32MatchesTheRFC4648Vectors() {
    let vectors = [
      ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="), ("foob", "MZXW6YQ="),
      ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]
    for (text, encoded) in vectors {
      #expect(Base32.encode(Array(text.utf8)) == encoded)
      #expect(Base32.decode(encoded) == Array(text.utf8))
    }
    #expect(Base32.encode(Array("foobar".utf8), padded: false) == "MZXW6YTBOI")
    #expect(Base32.decode("mzxw 6ytb oi") == Array("foobar".utf8))
    #expect(Base32.decode("not base32!") == nil)
  }
}
