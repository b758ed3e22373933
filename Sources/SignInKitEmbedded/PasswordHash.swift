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

/// scrypt cost parameters.
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
}
