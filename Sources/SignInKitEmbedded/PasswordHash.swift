import Foundation
import SignInCrypto
import SignInKit

/// A password hash with its per-user salt, the algorithm that made it and that algorithm's
/// parameters, so parameters (and the algorithm) can change without invalidating stored hashes.
///
/// scrypt where the platform has it (OpenSSL: Linux, macOS with openssl@3); PBKDF2-HMAC-SHA256
/// where it does not (CryptoKit has no scrypt). A hash names its algorithm, so each platform
/// knows what it can verify; one written before the algorithm was recorded is scrypt.
///
/// Imported hashes (`accounts:batchCreate`) keep the algorithm another system made them with:
/// Firebase's modified scrypt (scrypt, then AES-256-CTR over the project's signer key), the
/// HMAC variants, plain MD5 and SHA digests with rounds, and bcrypt (libxcrypt, Linux), besides
/// standard scrypt and PBKDF2. They are verified as they are, and made
/// again with this backend's own hash on the user's next successful sign-in.
package struct PasswordHash: Codable, Sendable, Equatable {
  package enum Algorithm: String, Codable, Sendable {
    case scrypt
    case pbkdf2SHA256 = "pbkdf2-sha256"
    /// Imported only (`PBKDF_SHA1`); made again with this backend's hash at the next sign-in.
    case pbkdf2SHA1 = "pbkdf2-sha1"
    /// Firebase's own (`SCRYPT` in an import): ``key`` is the signer key, ``saltSeparator``
    /// follows the salt.
    case firebaseScrypt = "firebase-scrypt"
    case hmacSHA256 = "hmac-sha256"
    case hmacSHA1 = "hmac-sha1"
    case hmacSHA512 = "hmac-sha512"
    /// A bcrypt string (``hash`` is its base64url); verified where libxcrypt is (Linux).
    case bcrypt
    /// Imported only (`MD5`, `SHA1`, `SHA256`, `SHA512`): the digest of the salt and password
    /// (in ``saltFirst``'s order), then of that digest, ``iterations`` times in all.
    case md5, sha1, sha256, sha512

    /// The digest of an imported `MD5` or `SHA*` hash.
    var digest: DigestAlgorithm? {
      switch self {
      case .md5: .md5
      case .sha1: .sha1
      case .sha256: .sha256
      case .sha512: .sha512
      default: nil
      }
    }
  }

  /// PBKDF2-HMAC-SHA256 rounds for new hashes: OWASP's recommendation (Password Storage Cheat
  /// Sheet, 2023).
  package static let pbkdf2Iterations = 600_000

  package var algorithm: Algorithm
  package var salt: String
  package var hash: String
  /// scrypt's parameters (zero for PBKDF2).
  package var n: UInt64
  package var r: UInt64
  package var p: UInt64
  /// PBKDF2's rounds (absent for scrypt).
  package var iterations: Int?
  /// The HMAC key, or Firebase scrypt's signer key (base64url); absent for the others.
  package var key: String?
  /// What Firebase scrypt appends to the salt (base64url).
  package var saltSeparator: String?
  /// For HMAC: whether the salt comes before the password in the message.
  package var saltFirst: Bool?

  package init(
    algorithm: Algorithm, salt: String, hash: String, n: UInt64 = 0, r: UInt64 = 0, p: UInt64 = 0,
    iterations: Int? = nil, key: String? = nil, saltSeparator: String? = nil, saltFirst: Bool? = nil
  ) {
    self.key = key
    self.saltSeparator = saltSeparator
    self.saltFirst = saltFirst
    self.algorithm = algorithm
    self.salt = salt
    self.hash = hash
    self.n = n
    self.r = r
    self.p = p
    self.iterations = iterations
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    algorithm = try container.decodeIfPresent(Algorithm.self, forKey: .algorithm) ?? .scrypt
    salt = try container.decode(String.self, forKey: .salt)
    hash = try container.decode(String.self, forKey: .hash)
    n = try container.decodeIfPresent(UInt64.self, forKey: .n) ?? 0
    r = try container.decodeIfPresent(UInt64.self, forKey: .r) ?? 0
    p = try container.decodeIfPresent(UInt64.self, forKey: .p) ?? 0
    iterations = try container.decodeIfPresent(Int.self, forKey: .iterations)
    key = try container.decodeIfPresent(String.self, forKey: .key)
    saltSeparator = try container.decodeIfPresent(String.self, forKey: .saltSeparator)
    saltFirst = try container.decodeIfPresent(Bool.self, forKey: .saltFirst)
  }

  /// Hashes `password` with a new random salt: scrypt at `parameters` when `scryptIsAvailable`,
  /// else PBKDF2-HMAC-SHA256.
  package static func make(
    _ password: String, parameters: ScryptParameters,
    scryptIsAvailable: Bool = Crypto.isScryptAvailable
  ) throws -> PasswordHash {
    let salt = try Crypto.randomBytes(16)
    guard scryptIsAvailable else {
      let hash = try Crypto.pbkdf2SHA256(
        password: Array(password.utf8), salt: salt, iterations: pbkdf2Iterations, length: 32)
      return PasswordHash(
        algorithm: .pbkdf2SHA256, salt: Base64URL.encode(salt), hash: Base64URL.encode(hash),
        iterations: pbkdf2Iterations)
    }
    let hash = try Crypto.scrypt(
      password: Array(password.utf8), salt: salt, n: parameters.n, r: parameters.r,
      p: parameters.p, length: 32)
    return PasswordHash(
      algorithm: .scrypt, salt: Base64URL.encode(salt), hash: Base64URL.encode(hash),
      n: parameters.n, r: parameters.r, p: parameters.p)
  }

  /// Spends what checking `password` against a new hash costs, and learns nothing: for an email
  /// with no account, so that it takes as long as a wrong password.
  package static func spendVerificationCost(_ password: String, parameters: ScryptParameters) throws {
    _ = try make(password, parameters: parameters)
  }

  /// Whether this hash should be made again on the next successful sign-in: made at a lower
  /// cost than `parameters`, or with PBKDF2 where scrypt is now available.
  package func isWeaker(than parameters: ScryptParameters, scryptIsAvailable: Bool = Crypto.isScryptAvailable)
    -> Bool
  {
    switch algorithm {
    case .scrypt: ScryptParameters(n: n, r: r, p: p).cost < parameters.cost
    case .pbkdf2SHA256: scryptIsAvailable || (iterations ?? 0) < Self.pbkdf2Iterations
    case .firebaseScrypt, .hmacSHA256, .hmacSHA1, .hmacSHA512, .bcrypt, .pbkdf2SHA1, .md5, .sha1, .sha256, .sha512: true
    }
  }

  /// Whether `password` matches, compared in constant time.
  ///
  /// - Throws: ``CryptoError`` when this platform cannot compute the hash's algorithm (a scrypt
  ///   hash where there is no scrypt).
  package func matches(_ password: String) throws -> Bool {
    guard let salt = Base64URL.decode(salt), let expected = Base64URL.decode(hash) else {
      return false
    }
    let actual: [UInt8]
    switch algorithm {
    case .scrypt:
      actual = try Crypto.scrypt(
        password: Array(password.utf8), salt: salt, n: n, r: r, p: p, length: expected.count)
    case .pbkdf2SHA256:
      guard let iterations, iterations > 0, !expected.isEmpty else { return false }
      actual = try Crypto.pbkdf2SHA256(
        password: Array(password.utf8), salt: salt, iterations: iterations, length: expected.count)
    case .firebaseScrypt:
      guard let signerKey = key.flatMap(Base64URL.decode), let separator = Base64URL.decode(saltSeparator ?? "")
      else { return false }
      let derived = try Crypto.scrypt(
        password: Array(password.utf8), salt: salt + separator, n: n, r: r, p: max(p, 1), length: 64)
      actual = try Crypto.aes256CTR(
        key: Array(derived.prefix(32)), iv: [UInt8](repeating: 0, count: 16), data: signerKey)
    case .pbkdf2SHA1:
      guard let iterations, iterations > 0, !expected.isEmpty else { return false }
      actual = try Crypto.pbkdf2SHA1(
        password: Array(password.utf8), salt: salt, iterations: iterations, length: expected.count)
    case .bcrypt:
      return try Bcrypt.matches(password, hash: String(decoding: expected, as: UTF8.self))
    case .md5, .sha1, .sha256, .sha512:
      guard let digest = algorithm.digest else { return false }
      let message = saltFirst == false ? Array(password.utf8) + salt : salt + Array(password.utf8)
      actual = Crypto.digest(digest, message, rounds: iterations ?? 1)
    case .hmacSHA256, .hmacSHA1, .hmacSHA512:
      guard let key = key.flatMap(Base64URL.decode) else { return false }
      let message = saltFirst == true ? salt + Array(password.utf8) : Array(password.utf8) + salt
      actual =
        switch algorithm {
        case .hmacSHA1: Crypto.hmacSHA1(key: key, data: message)
        case .hmacSHA512: Crypto.hmacSHA512(key: key, data: message)
        default: Crypto.hmacSHA256(key: key, data: message)
        }
    }
    return Crypto.constantTimeEqual(actual, expected)
  }
}

/// scrypt cost parameters: CPU/memory cost `n` (a power of two), block size `r`, parallelism
/// `p`. One hash needs about `128 · n · r` bytes of memory and time in proportion to
/// `n · r · p`.
///
/// The trade-off: each sign-in and sign-up spends this cost on purpose, so an attacker who
/// steals `accounts.json` spends it for every guess. ``firebase`` (the default, N=2^14, r=8, p=1:
/// 16 MiB and about 50–70 ms here) is the cost Firebase's own scrypt uses, and keeps a laptop's
/// sign-in quick. ``owasp`` (N=2^17, r=8, p=1: 128 MiB and about 8 times as long) meets OWASP's
/// minimum for scrypt; choose it when the data folder may leave the machine. Every stored hash
/// keeps the parameters it was made with, so raising the cost never breaks an account: a
/// weaker hash is made again at the new cost on that user's next successful sign-in.
///
/// - Concurrency: `Sendable` value.
public struct ScryptParameters: Sendable, Equatable {
  public var n: UInt64
  public var r: UInt64
  public var p: UInt64

  public init(n: UInt64 = 1 << 14, r: UInt64 = 8, p: UInt64 = 1) {
    self.n = n
    self.r = r
    self.p = p
  }

  /// Firebase's own scrypt cost: N=2^14, r=8, p=1. The default.
  public static let firebase = ScryptParameters(n: 1 << 14, r: 8, p: 1)
  /// A cheap but real scrypt, N=2^4, r=8, p=1: microseconds a hash, for test servers and test
  /// suites (`signin serve` without a data folder), never for real users' passwords. A hash made
  /// at this cost is made again at the configured cost on the next sign-in of a backend
  /// configured with more.
  public static let test = ScryptParameters(n: 1 << 4, r: 8, p: 1)
  /// OWASP's minimum for scrypt (Password Storage Cheat Sheet): N=2^17, r=8, p=1.
  public static let owasp = ScryptParameters(n: 1 << 17, r: 8, p: 1)

  /// The work one hash takes, to compare parameter sets.
  package var cost: UInt64 { n * r * p }
}
