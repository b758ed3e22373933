import SignInCrypto
import Foundation
import SignInKit

/// A scrypt password hash with its per-user salt and the parameters it was made with, so the
/// parameters can change without invalidating stored hashes.
struct PasswordHash: Codable, Sendable, Equatable {
  var salt: String
  var hash: String
  var n: UInt64
  var r: UInt64
  var p: UInt64

  /// Hashes `password` with a new random salt.
  static func make(_ password: String, parameters: ScryptParameters) throws -> PasswordHash {
    let salt = try Crypto.randomBytes(16)
    let hash = try Crypto.scrypt(
      password: Array(password.utf8), salt: salt, n: parameters.n, r: parameters.r,
      p: parameters.p, length: 32)
    return PasswordHash(
      salt: Base64URL.encode(salt), hash: Base64URL.encode(hash), n: parameters.n,
      r: parameters.r, p: parameters.p)
  }

  /// Spends what checking `password` against a hash made with `parameters` costs, and learns
  /// nothing: for an email with no account, so that it takes as long as a wrong password.
  static func spendVerificationCost(_ password: String, parameters: ScryptParameters) throws {
    _ = try Crypto.scrypt(
      password: Array(password.utf8), salt: [UInt8](repeating: 0, count: 16), n: parameters.n, r: parameters.r,
      p: parameters.p, length: 32)
  }

  /// Whether this hash was made at a lower cost than `parameters` (so a successful sign-in
  /// should make it again at that cost).
  func isWeaker(than parameters: ScryptParameters) -> Bool {
    ScryptParameters(n: n, r: r, p: p).cost < parameters.cost
  }

  /// Whether `password` matches, compared in constant time.
  func matches(_ password: String) throws -> Bool {
    guard let salt = Base64URL.decode(salt), let expected = Base64URL.decode(hash) else {
      return false
    }
    let actual = try Crypto.scrypt(
      password: Array(password.utf8), salt: salt, n: n, r: r, p: p, length: expected.count)
    return zip(actual, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
      && actual.count == expected.count
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
  /// OWASP's minimum for scrypt (Password Storage Cheat Sheet): N=2^17, r=8, p=1.
  public static let owasp = ScryptParameters(n: 1 << 17, r: 8, p: 1)

  /// The work one hash takes, to compare parameter sets.
  var cost: UInt64 { n * r * p }
}
