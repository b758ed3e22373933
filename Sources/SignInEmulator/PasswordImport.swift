import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// How an upload's password hashes were made (`hashAlgorithm` and its parameters), for the ones
/// this server can verify: `SCRYPT`, Firebase's own (`signerKey`, `saltSeparator`, `rounds`,
/// `memoryCost`), `STANDARD_SCRYPT` (`cpuMemCost`, `blockSize`, `parallelization`, `dkLen`),
/// `PBKDF2_SHA256` and `PBKDF_SHA1` (`rounds`) and `HMAC_SHA256`, `HMAC_SHA1`, `HMAC_SHA512` (`signerKey`, and
/// `passwordHashOrder`: the password first unless it says `SALT_AND_PASSWORD`) and, where
/// libxcrypt is (Linux), `BCRYPT`. Other algorithms are refused for the whole upload with what
/// to do instead.
///
/// - Concurrency: `Sendable` value.
struct PasswordImport: Sendable {
  enum Algorithm: Sendable, Equatable {
    case none
    case scrypt(n: UInt64, r: UInt64, p: UInt64, length: Int)
    case pbkdf2SHA256(iterations: Int)
    case pbkdf2SHA1(iterations: Int)
    case firebaseScrypt(signerKey: [UInt8], saltSeparator: [UInt8], rounds: UInt64, memoryCost: UInt64)
    case hmac(PasswordHash.Algorithm, key: [UInt8], saltFirst: Bool)
    case bcrypt
  }

  let algorithm: Algorithm

  /// - Throws: `UNSUPPORTED_HASH_ALGORITHM` or `INVALID_ARGUMENT` naming the field.
  init(_ fields: [String: JSONValue]) throws {
    func number(_ name: String, in range: ClosedRange<Int64>) throws -> Int64 {
      guard let value = try RequestNumber.integer(fields[name], field: name, in: range) else {
        throw AuthError(
          .invalidResponse, "\(name) is missing",
          serverMessage: "INVALID_ARGUMENT : \(name) is required for \(fields["hashAlgorithm"]?.string ?? "")")
      }
      return value
    }
    switch fields["hashAlgorithm"]?.string {
    case nil:
      algorithm = .none
    case "STANDARD_SCRYPT":
      let n = try number("cpuMemCost", in: 2...(1 << 20))
      guard n & (n - 1) == 0 else {
        throw AuthError(
          .invalidResponse, "cpuMemCost must be a power of two",
          serverMessage: "INVALID_ARGUMENT : cpuMemCost must be a power of two")
      }
      algorithm = .scrypt(
        n: UInt64(n), r: UInt64(try number("blockSize", in: 1...64)),
        p: UInt64(try number("parallelization", in: 1...64)), length: Int(try number("dkLen", in: 16...128)))
    case "PBKDF2_SHA256":
      algorithm = .pbkdf2SHA256(iterations: Int(try number("rounds", in: 1...10_000_000)))
    case "PBKDF_SHA1":
      algorithm = .pbkdf2SHA1(iterations: Int(try number("rounds", in: 1...10_000_000)))
    case "SCRYPT":
      algorithm = .firebaseScrypt(
        signerKey: try Self.bytes("signerKey", in: fields, required: true),
        saltSeparator: try Self.bytes("saltSeparator", in: fields, required: false),
        rounds: UInt64(try number("rounds", in: 1...8)), memoryCost: UInt64(try number("memoryCost", in: 1...14)))
    case "BCRYPT" where Bcrypt.isAvailable:
      algorithm = .bcrypt
    case "HMAC_SHA256", "HMAC_SHA1", "HMAC_SHA512":
      let kind: PasswordHash.Algorithm =
        switch fields["hashAlgorithm"]?.string {
        case "HMAC_SHA1": .hmacSHA1
        case "HMAC_SHA512": .hmacSHA512
        default: .hmacSHA256
        }
      algorithm = .hmac(
        kind, key: try Self.bytes("signerKey", in: fields, required: true),
        saltFirst: fields["passwordHashOrder"]?.string == "SALT_AND_PASSWORD")
    case let other?:
      throw AuthError(
        .invalidResponse, "unsupported hash algorithm \(other)",
        serverMessage: "UNSUPPORTED_HASH_ALGORITHM : \(other) hashes cannot be verified here. Import them with "
          + "SCRYPT, STANDARD_SCRYPT, PBKDF2_SHA256, PBKDF_SHA1, HMAC_SHA256/SHA1/SHA512 or (on Linux) BCRYPT, or without "
          + "passwordHash (the users then reset their passwords).")
    }
  }

  /// The base64 bytes of `name`; an absent optional field is empty.
  private static func bytes(_ name: String, in fields: [String: JSONValue], required: Bool) throws -> [UInt8] {
    guard let text = fields[name]?.string else {
      guard !required else {
        throw AuthError(
          .invalidResponse, "\(name) is missing",
          serverMessage: "INVALID_ARGUMENT : \(name) is required for \(fields["hashAlgorithm"]?.string ?? "")")
      }
      return []
    }
    guard let bytes = Base64URL.decode(text), !required || !bytes.isEmpty else {
      throw AuthError(
        .invalidResponse, "\(name) is not base64", serverMessage: "INVALID_ARGUMENT : \(name) must be base64")
    }
    return bytes
  }

  /// The stored form of one user's `passwordHash` and `salt` (base64, standard or URL-safe).
  ///
  /// - Throws: `MISSING_HASH_ALGORITHM` when the upload named none, `INVALID_ARGUMENT` for a
  ///   hash or salt that is not base64 or has the wrong length.
  func hash(_ hash: String, salt: String?) throws -> PasswordHash {
    guard let bytes = Base64URL.decode(hash), let saltBytes = Base64URL.decode(salt ?? "") else {
      throw AuthError(
        .invalidResponse, "passwordHash is not base64",
        serverMessage: "INVALID_ARGUMENT : passwordHash and salt must be base64")
    }
    switch algorithm {
    case .none:
      throw AuthError(
        .invalidResponse, "hashAlgorithm is missing",
        serverMessage: "MISSING_HASH_ALGORITHM : name the hashAlgorithm of the passwordHash values")
    case .scrypt(let n, let r, let p, let length):
      guard bytes.count == length else {
        throw AuthError(
          .invalidResponse, "passwordHash has the wrong length",
          serverMessage: "INVALID_ARGUMENT : a passwordHash has \(bytes.count) bytes, dkLen says \(length)")
      }
      return PasswordHash(
        algorithm: .scrypt, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes), n: n, r: r, p: p)
    case .pbkdf2SHA256(let iterations):
      return PasswordHash(
        algorithm: .pbkdf2SHA256, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes),
        iterations: iterations)
    case .pbkdf2SHA1(let iterations):
      return PasswordHash(
        algorithm: .pbkdf2SHA1, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes),
        iterations: iterations)
    case .firebaseScrypt(let signerKey, let saltSeparator, let rounds, let memoryCost):
      return PasswordHash(
        algorithm: .firebaseScrypt, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes),
        n: 1 << memoryCost, r: rounds, p: 1, key: Base64URL.encode(signerKey),
        saltSeparator: Base64URL.encode(saltSeparator))
    case .bcrypt:
      let text = String(decoding: bytes, as: UTF8.self)
      guard (text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$")) && text.utf8.count == 60
      else {
        throw AuthError(
          .invalidResponse, "not a bcrypt hash",
          serverMessage: "INVALID_ARGUMENT : a BCRYPT passwordHash must be the base64 of a 60-character $2b$ string")
      }
      return PasswordHash(algorithm: .bcrypt, salt: "", hash: Base64URL.encode(bytes))
    case .hmac(let kind, let key, let saltFirst):
      return PasswordHash(
        algorithm: kind, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes), key: Base64URL.encode(key),
        saltFirst: saltFirst)
    }
  }
}
