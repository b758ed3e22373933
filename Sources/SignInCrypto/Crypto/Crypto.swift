import Foundation

/// The cryptographic primitives SignInKit uses: SHA-256, HMAC-SHA256, secure random bytes,
/// scrypt and PBKDF2-HMAC-SHA256, and (in ``RSAPrivateKey`` / ``RSAPublicKey``) RSA-2048 with
/// RS256. Each comes from the platform's library through ``CryptoBackend`` (OpenSSL's libcrypto,
/// or CryptoKit and Security); nothing here is implemented by hand.
///
/// - Concurrency: stateless functions, callable from any isolation.
package enum Crypto {
  /// SHA-256 of `data`.
  package static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
    CryptoBackend.sha256(Array(data))
  }

  /// SHA-256 of `data` as lowercase hex (Apple's nonce claim, digests of stored secrets).
  package static func sha256Hex(_ data: some Collection<UInt8>) -> String {
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in sha256(data) {
      hex.append(hexDigits[Int(byte >> 4)])
      hex.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// HMAC-SHA256 of `data` under `key`.
  package static func hmacSHA256(key: some Collection<UInt8>, data: some Collection<UInt8>)
    -> [UInt8]
  {
    CryptoBackend.hmacSHA256(key: Array(key), data: Array(data))
  }

  /// Whether `a` and `b` are the same bytes, compared in a time that does not depend on where
  /// they differ (OpenSSL's `CRYPTO_memcmp`, Darwin's `timingsafe_bcmp`): for MACs, hashes and
  /// codes an attacker guesses at. Different lengths are unequal at once; lengths are public.
  package static func constantTimeEqual(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    CryptoBackend.constantTimeEqual(Array(a), Array(b))
  }

  /// HMAC-SHA1 of `data` under `key`: for one-time passwords (``OneTimePassword``), which
  /// authenticator apps compute with it, and for verifying imported `HMAC_SHA1` password hashes.
  package static func hmacSHA1(key: some Collection<UInt8>, data: some Collection<UInt8>) -> [UInt8] {
    CryptoBackend.hmacSHA1(key: Array(key), data: Array(data))
  }

  /// `count` bytes from the operating system's secure random source.
  package static func randomBytes(_ count: Int) throws -> [UInt8] {
    try CryptoBackend.randomBytes(count)
  }

  /// `count` decimal digits, each equally likely: random bytes are drawn until one falls below
  /// 250 (a multiple of 10), so no digit comes up more often than another (`byte % 10` favours
  /// 0–5 by 1 in 25).
  ///
  /// - Parameter source: where the bytes come from; tests pass a fixed sequence.
  package static func randomDigits(
    _ count: Int, source: (Int) throws -> [UInt8] = { try randomBytes($0) }
  ) throws -> String {
    var digits = ""
    while digits.count < count {
      for byte in try source(count) where byte < 250 && digits.count < count {
        digits.append(Character(Unicode.Scalar(UInt8(ascii: "0") + byte % 10)))
      }
    }
    return digits
  }

  /// scrypt (RFC 7914) of `password` with `salt`, cost `n` (a power of two), block size `r`,
  /// parallelism `p`, giving `length` bytes.
  ///
  /// - Throws: ``CryptoError`` when the parameters are refused, or where the platform has no
  ///   scrypt (Apple platforms without OpenSSL; ``isScryptAvailable`` says which).
  package static func scrypt(
    password: some Collection<UInt8>, salt: some Collection<UInt8>, n: UInt64, r: UInt64,
    p: UInt64, length: Int
  ) throws -> [UInt8] {
    try CryptoBackend.scrypt(
      password: Array(password), salt: Array(salt), n: n, r: r, p: p, length: length)
  }

  /// HMAC-SHA512 of `data` under `key`, for verifying imported password hashes.
  package static func hmacSHA512(key: some Collection<UInt8>, data: some Collection<UInt8>) -> [UInt8] {
    CryptoBackend.hmacSHA512(key: Array(key), data: Array(data))
  }

  /// The `algorithm` digest of `data`, iterated: the digest of the digest, `rounds` times in
  /// all (at least once). For verifying imported `SHA1`, `SHA256`, `SHA512` and `MD5` password
  /// hashes only; MD5 and SHA-1 are broken for anything new.
  package static func digest(_ algorithm: DigestAlgorithm, _ data: some Collection<UInt8>, rounds: Int = 1) -> [UInt8] {
    var value = CryptoBackend.digest(algorithm, Array(data))
    for _ in 1..<max(rounds, 1) { value = CryptoBackend.digest(algorithm, value) }
    return value
  }

  /// AES-256-CTR of `data` with `key` (32 bytes) from the counter block `iv` (16 bytes):
  /// encryption and decryption are the same operation.
  package static func aes256CTR(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
    try CryptoBackend.aes256CTR(key: key, iv: iv, data: data)
  }

  /// Whether ``scrypt(password:salt:n:r:p:length:)`` works on this platform.
  package static var isScryptAvailable: Bool { CryptoBackend.isScryptAvailable }

  /// PBKDF2 (RFC 8018) with HMAC-SHA256 of `password` with `salt`, `iterations` rounds, giving
  /// `length` bytes. Available on every platform.
  package static func pbkdf2SHA256(
    password: some Collection<UInt8>, salt: some Collection<UInt8>, iterations: Int, length: Int
  ) throws -> [UInt8] {
    try pbkdf2(CryptoBackend.pbkdf2SHA256, password: password, salt: salt, iterations: iterations, length: length)
  }

  /// PBKDF2 with HMAC-SHA1, for verifying imported `PBKDF_SHA1` password hashes only.
  package static func pbkdf2SHA1(
    password: some Collection<UInt8>, salt: some Collection<UInt8>, iterations: Int, length: Int
  ) throws -> [UInt8] {
    try pbkdf2(CryptoBackend.pbkdf2SHA1, password: password, salt: salt, iterations: iterations, length: length)
  }

  /// One PBKDF2 variant, after the checks both share.
  private static func pbkdf2(
    _ derive: ([UInt8], [UInt8], Int, Int) throws -> [UInt8], password: some Collection<UInt8>,
    salt: some Collection<UInt8>, iterations: Int, length: Int
  ) throws -> [UInt8] {
    guard iterations > 0, length > 0 else {
      throw CryptoError("PBKDF2 needs at least one iteration and one byte of output")
    }
    return try derive(Array(password), Array(salt), iterations, length)
  }

  /// The PKCE S256 code challenge of `verifier` (RFC 7636 §4.2):
  /// BASE64URL(SHA256(ASCII(verifier))).
  package static func pkceChallenge(verifier: String) -> String {
    Base64URL.encode(sha256(Array(verifier.utf8)))
  }
}
