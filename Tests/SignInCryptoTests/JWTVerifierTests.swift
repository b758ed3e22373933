import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import Testing

@Suite struct JWTVerifierTests {
  static let key = try! RSAPrivateKey.generate()
  static let otherKey = try! RSAPrivateKey.generate()
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let issuer = "https://issuer.example"

  static var keys: JSONWebKeySet {
    JSONWebKeySet(keys: [.init(kid: "k1", publicKey: try! key.publicKey)])
  }
  static var verifier: JWTVerifier {
    JWTVerifier(issuer: issuer, audiences: ["client-1"], leeway: 60, now: { now })
  }

  static func claims(_ changes: [String: JSONValue] = [:]) -> [String: JSONValue] {
    var claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": .string("client-1"), "sub": .string("user-7"),
      "iat": .number(now.timeIntervalSince1970 - 10), "exp": .number(now.timeIntervalSince1970 + 3600),
      "nonce": .string("n-1"),
    ]
    for (name, value) in changes { claims[name] = value }
    return claims
  }

  static func token(_ changes: [String: JSONValue] = [:], key: RSAPrivateKey = key, kid: String? = "k1")
    throws -> String
  {
    try JSONWebToken.signed(claims: claims(changes), key: key, kid: kid)
  }

  @Test func validTokenVerifiesAndItsClaimsDecode() throws {
    let jwt = try Self.verifier.verify(try Self.token(), keys: Self.keys, nonce: "n-1")
    #expect(jwt.subject == "user-7")
    #expect(jwt.keyID == "k1")
    #expect(jwt.audiences == ["client-1"])
  }

  @Test func tokenWithoutKidUsesTheOnlyKey() throws {
    _ = try Self.verifier.verify(try Self.token(kid: nil), keys: Self.keys)
    let two = JSONWebKeySet(keys: Self.keys.keys + [.init(kid: "k2", publicKey: try Self.otherKey.publicKey)])
    #expect(throws: TokenError.unknownKey(nil)) { try Self.verifier.verify(try Self.token(kid: nil), keys: two) }
  }

  @Test func audienceMayBeAnArray() throws {
    let token = try Self.token(["aud": .array([.string("other"), .string("client-1")]), "azp": .string("client-1")])
    _ = try Self.verifier.verify(token, keys: Self.keys)
    #expect(throws: TokenError.wrongAudience(["other"])) {
      try Self.verifier.verify(try Self.token(["aud": .array([.string("other")])]), keys: Self.keys)
    }
  }

  @Test func noneAndHMACAlgorithmsAreRefused() throws {
    let claims = Base64URL.encode(try JSONEncoder().encode(Self.claims()))
    for alg in ["none", "HS256"] {
      let header = Base64URL.encode(Array("{\"alg\":\"\(alg)\",\"kid\":\"k1\"}".utf8))
      #expect(throws: TokenError.unsupportedAlgorithm(alg)) {
        try Self.verifier.verify("\(header).\(claims).", keys: Self.keys)
      }
    }
  }

  @Test func eachClaimCheckHasItsOwnError() throws {
    let cases: [([String: JSONValue], TokenError)] = [
      (["iss": .string("https://evil.example")], .wrongIssuer("https://evil.example")),
      (["aud": .string("someone-else")], .wrongAudience(["someone-else"])),
      (["exp": .number(Self.now.timeIntervalSince1970 - 61)], .expired),
      (["iat": .number(Self.now.timeIntervalSince1970 + 61)], .issuedInTheFuture),
    ]
    for (change, error) in cases {
      #expect(throws: error) { try Self.verifier.verify(try Self.token(change), keys: Self.keys) }
    }
    #expect(throws: TokenError.nonceMismatch) {
      try Self.verifier.verify(try Self.token(), keys: Self.keys, nonce: "other")
    }
  }

  @Test func severalAudiencesNeedAnAuthorizedPartyThatIsThisClient() throws {
    let both: JSONValue = .array([.string("other"), .string("client-1")])
    #expect(throws: TokenError.missingClaim("azp")) {
      try Self.verifier.verify(try Self.token(["aud": both]), keys: Self.keys)
    }
    #expect(throws: TokenError.wrongAuthorizedParty("other")) {
      try Self.verifier.verify(try Self.token(["aud": both, "azp": .string("other")]), keys: Self.keys)
    }
    // With one audience azp may be absent, but when present it must be this client.
    #expect(throws: TokenError.wrongAuthorizedParty("other")) {
      try Self.verifier.verify(try Self.token(["azp": .string("other")]), keys: Self.keys)
    }
  }

  @Test func notBeforeIsCheckedAndIssuedAtIsRequired() throws {
    #expect(throws: TokenError.notYetValid) {
      try Self.verifier.verify(try Self.token(["nbf": .number(Self.now.timeIntervalSince1970 + 61)]), keys: Self.keys)
    }
    _ = try Self.verifier.verify(try Self.token(["nbf": .number(Self.now.timeIntervalSince1970 + 30)]), keys: Self.keys)
    #expect(throws: TokenError.missingClaim("iat")) {
      try Self.verifier.verify(try Self.token(["iat": .null]), keys: Self.keys)
    }
  }

  @Test func aKeySetKeepsOnlyKeysThatVerifyRS256AndSkipsTheRestOneByOne() throws {
    var good = try Self.key.publicKey.jwk
    good["kid"] = "good"
    let small = try RSAPrivateKey.generate(bits: 1024)
    var weak = try small.publicKey.jwk
    weak["kid"] = "weak"
    var encryption = good
    encryption["kid"] = "enc"
    encryption["use"] = "enc"
    var otherAlgorithm = good
    otherAlgorithm["kid"] = "ps256"
    otherAlgorithm["alg"] = "PS256"
    let members: [[String: String]] = [
      ["kty": "EC", "kid": "ec", "crv": "P-256", "x": "AA", "y": "AA"],
      ["kty": "RSA", "kid": "broken", "n": "!!", "e": "AQAB"],
      weak, encryption, otherAlgorithm, good,
    ]
    let set = try JSONWebKeySet(json: try JSONEncoder().encode(["keys": members]))
    #expect(set.keys.map(\.kid) == ["good"])
    #expect(throws: TokenError.unknownKey("weak")) {
      try Self.verifier.verify(try Self.token(key: small, kid: "weak"), keys: set)
    }
  }

  @Test func leewayToleratesSmallClockSkew() throws {
    let token = try Self.token([
      "exp": .number(Self.now.timeIntervalSince1970 - 30), "iat": .number(Self.now.timeIntervalSince1970 + 30),
    ])
    _ = try Self.verifier.verify(token, keys: Self.keys)
  }

  @Test func signatureByAnotherKeyOrTamperedClaimsFails() throws {
    #expect(throws: TokenError.badSignature) {
      try Self.verifier.verify(try Self.token(key: Self.otherKey), keys: Self.keys)
    }
    let parts = try Self.token().split(separator: ".").map(String.init)
    let forged = Base64URL.encode(try JSONEncoder().encode(Self.claims(["sub": .string("admin")])))
    #expect(throws: TokenError.badSignature) {
      try Self.verifier.verify("\(parts[0]).\(forged).\(parts[2])", keys: Self.keys)
    }
  }

  @Test func malformedTokensSayWhatIsWrong() {
    #expect(throws: TokenError.malformed("a JWT has 3 dot-separated parts; this has 1")) {
      try JSONWebToken(decoding: "garbage")
    }
    #expect(throws: TokenError.malformed("the header is not base64url-encoded JSON")) {
      try JSONWebToken(decoding: "a.b.c")
    }
  }

  @Test func keySetRoundTripsThroughJSON() throws {
    let set = Self.keys
    let parsed = try JSONWebKeySet(json: try set.json())
    #expect(parsed == set)
    let text = String(decoding: try set.json(), as: UTF8.self)
    #expect(text.contains("\"alg\":\"RS256\""))
    #expect(text.contains("\"kid\":\"k1\""))
  }
}

@Suite(.timeLimit(.minutes(3)))
struct JSONWebKeySetCacheTests {
  @Test func fetchesOnceAndAgainOnlyForAnUnknownKid() async throws {
    let fetches = Locked(0)
    let current = Locked(JWTVerifierTests.keys)
    let clock = Locked(JWTVerifierTests.now)
    let cache = JSONWebKeySetCache(
      now: { clock.withLock { $0 } },
      fetch: { _ in
        fetches.withLock { $0 += 1 }
        return current.withLock { $0 }
      })
    let verifier = JWTVerifierTests.verifier
    _ = try await cache.verify(try JWTVerifierTests.token(), with: verifier)
    _ = try await cache.verify(try JWTVerifierTests.token(), with: verifier)
    #expect(fetches.withLock { $0 } == 1)
    // The issuer rotates to k2: one refetch finds it.
    let rotated = JSONWebKeySet(keys: [.init(kid: "k2", publicKey: try JWTVerifierTests.otherKey.publicKey)])
    current.withLock { $0 = rotated }
    clock.withLock { $0.addTimeInterval(30) }  // refetches are at least 30 s apart
    _ = try await cache.verify(
      try JWTVerifierTests.token(key: JWTVerifierTests.otherKey, kid: "k2"), with: verifier)
    #expect(fetches.withLock { $0 } == 2)
    // A kid nobody publishes: one refetch, then a clear error.
    clock.withLock { $0.addTimeInterval(30) }
    await #expect(throws: TokenError.unknownKey("k9")) {
      try await cache.verify(try JWTVerifierTests.token(kid: "k9"), with: verifier)
    }
    #expect(fetches.withLock { $0 } == 3)
  }

  @Test func unknownKidsCauseAtMostOneFetchPerInterval() async throws {
    let fetches = Locked(0)
    let clock = Locked(JWTVerifierTests.now)
    let cache = JSONWebKeySetCache(
      now: { clock.withLock { $0 } },
      fetch: { _ in
        fetches.withLock { $0 += 1 }
        return JWTVerifierTests.keys
      })
    _ = try await cache.verify(try JWTVerifierTests.token(), with: JWTVerifierTests.verifier)
    // A flood of forged tokens with made-up kids: refused, and the issuer is not asked again.
    for index in 0..<100 {
      await #expect(throws: TokenError.unknownKey("forged-\(index)")) {
        try await cache.verify(try JWTVerifierTests.token(kid: "forged-\(index)"), with: JWTVerifierTests.verifier)
      }
    }
    #expect(fetches.withLock { $0 } == 1)
    clock.withLock { $0.addTimeInterval(30) }
    await #expect(throws: TokenError.unknownKey("forged-again")) {
      try await cache.verify(try JWTVerifierTests.token(kid: "forged-again"), with: JWTVerifierTests.verifier)
    }
    #expect(fetches.withLock { $0 } == 2)
  }
}
