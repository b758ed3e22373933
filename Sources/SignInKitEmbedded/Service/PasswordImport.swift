import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// How an upload's password hashes were made (`hashAlgorithm` and its parameters), for the ones
/// this server can verify: `SCRYPT`, Firebase's own (`signerKey`, `saltSeparator`, `rounds`,
/// `memoryCost`), `STANDARD_SCRYPT` (`cpuMemCost`, `blockSize`, `parallelization`, `dkLen`),
/// `PBKDF2_SHA256` and `PBKDF_SHA1` (`rounds`) and `HMAC_SHA256`, `HMAC_SHA1`, `HMAC_SHA512`
/// (`signerKey`, and `passwordHashOrder`: the password first unless it says
/// `SALT_AND_PASSWORD`), `MD5`, `SHA1`, `SHA256` and `SHA512` (`rounds`, and
/// `passwordHashOrder`: the salt first unless it says `PASSWORD_AND_SALT`, as Firebase's own MD5
/// example hashes `salt + password`) and, where libxcrypt is (Linux), `BCRYPT`. Other algorithms are refused
/// for the whole upload with what to do instead.
///
/// Each algorithm's cost has a ceiling near Firebase's own (the Admin SDKs' bounds), so that one
/// imported hash cannot make every check of it take hours or gigabytes: see ``Ceiling``.
///
/// - Concurrency: `Sendable` value.
struct PasswordImport: Sendable {
  /// The most an imported hash may cost to check, each named in the error that refuses more.
  enum Ceiling {
    /// bcrypt's cost factor (2^14 rounds, about a second here); Firebase's own is 10.
    static let bcryptCost = 14
    /// PBKDF2 rounds, as the Admin SDKs bound `PBKDF2_SHA256` and `PBKDF_SHA1`.
    static let pbkdf2Rounds = 120_000
    /// `STANDARD_SCRYPT`'s memory per check (128 × cpuMemCost × blockSize bytes): 64 MiB.
    static let scryptMemory = 64 << 20
    /// `STANDARD_SCRYPT`'s parallelization.
    static let scryptParallelization = 16
    /// Rounds of `MD5` and `SHA*` digests, the Admin SDKs' bound.
    static let digestRounds = 8192
  }

  enum Algorithm: Sendable, Equatable {
    case none
    case scrypt(n: UInt64, r: UInt64, p: UInt64, length: Int)
    case pbkdf2SHA256(iterations: Int)
    case pbkdf2SHA1(iterations: Int)
    case firebaseScrypt(signerKey: [UInt8], saltSeparator: [UInt8], rounds: UInt64, memoryCost: UInt64)
    case hmac(PasswordHash.Algorithm, key: [UInt8], saltFirst: Bool)
    case digest(PasswordHash.Algorithm, rounds: Int, saltFirst: Bool)
    case bcrypt
  }

  let algorithm: Algorithm

  /// - Throws: `UNSUPPORTED_HASH_ALGORITHM`, or `INVALID_ARGUMENT` naming the parameter.
  init(_ upload: UploadAccountBody) throws(FirebaseFailure) {
    typealias Field = UploadAccountBody.CodingKeys
    func number(_ value: Int?, _ field: Field, in range: ClosedRange<Int>) throws(FirebaseFailure) -> Int {
      guard let value else {
        throw FirebaseFailure(
          .invalidArgument, "\(field.stringValue) is required for \(upload.hashAlgorithm?.rawValue ?? "")")
      }
      guard range.contains(value) else {
        throw FirebaseFailure.invalidValue(
          field: field.stringValue, expected: "TYPE_INT32, from \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    }
    func bytes(_ value: String?, _ field: Field, required: Bool) throws(FirebaseFailure) -> [UInt8] {
      guard let value else {
        guard !required else {
          throw FirebaseFailure(
            .invalidArgument, "\(field.stringValue) is required for \(upload.hashAlgorithm?.rawValue ?? "")")
        }
        return []
      }
      guard let bytes = Base64URL.decode(value), !required || !bytes.isEmpty else {
        throw FirebaseFailure(.invalidArgument, "\(field.stringValue) must be base64")
      }
      return bytes
    }
    switch upload.hashAlgorithm {
    case nil:
      algorithm = .none
    case .standardScrypt:
      let n = try number(upload.cpuMemCost, .cpuMemCost, in: 2...(1 << 20))
      guard n & (n - 1) == 0 else { throw FirebaseFailure(.invalidArgument, "cpuMemCost must be a power of two") }
      let r = try number(upload.blockSize, .blockSize, in: 1...64)
      // RFC 7914 §2: N < 2^(128·r/8); past it scrypt refuses every check (each sign-in a 500).
      guard 16 * r >= Int.bitWidth - 1 || n < 1 << (16 * r) else {
        throw FirebaseFailure(
          .invalidArgument,
          "cpuMemCost must be less than 2^(16 × blockSize) (RFC 7914): \(n) with blockSize \(r) is not a scrypt "
            + "hash anyone could have made. Check the hash parameters the other system used.")
      }
      guard 128 * n * r <= Ceiling.scryptMemory else {
        throw FirebaseFailure(
          .invalidArgument,
          "STANDARD_SCRYPT hashes may use at most \(Ceiling.scryptMemory >> 20) MiB per check (128 × cpuMemCost × "
            + "blockSize bytes); these would use \((128 * n * r) >> 20) MiB. Import them without passwordHash (the "
            + "users then reset their passwords), or lower cpuMemCost for test data.")
      }
      algorithm = .scrypt(
        n: UInt64(n), r: UInt64(r),
        p: UInt64(try number(upload.parallelization, .parallelization, in: 1...Ceiling.scryptParallelization)),
        length: try number(upload.dkLen, .dkLen, in: 16...128))
    case .pbkdf2SHA256:
      algorithm = .pbkdf2SHA256(iterations: try number(upload.rounds, .rounds, in: 1...Ceiling.pbkdf2Rounds))
    case .pbkdfSHA1:
      algorithm = .pbkdf2SHA1(iterations: try number(upload.rounds, .rounds, in: 1...Ceiling.pbkdf2Rounds))
    case .scrypt:
      algorithm = .firebaseScrypt(
        signerKey: try bytes(upload.signerKey, .signerKey, required: true),
        saltSeparator: try bytes(upload.saltSeparator, .saltSeparator, required: false),
        rounds: UInt64(try number(upload.rounds, .rounds, in: 1...8)),
        memoryCost: UInt64(try number(upload.memoryCost, .memoryCost, in: 1...14)))
    case .bcrypt where Bcrypt.isAvailable:
      algorithm = .bcrypt
    case .hmacSHA256, .hmacSHA1, .hmacSHA512:
      let kind: PasswordHash.Algorithm =
        switch upload.hashAlgorithm {
        case .hmacSHA1: .hmacSHA1
        case .hmacSHA512: .hmacSHA512
        default: .hmacSHA256
        }
      algorithm = .hmac(
        kind, key: try bytes(upload.signerKey, .signerKey, required: true),
        saltFirst: upload.passwordHashOrder == .saltAndPassword)
    case .md5, .sha1, .sha256, .sha512:
      let kind: PasswordHash.Algorithm =
        switch upload.hashAlgorithm {
        case .md5: .md5
        case .sha1: .sha1
        case .sha512: .sha512
        default: .sha256
        }
      // MD5 takes 0 rounds (one digest, as 1 does), the others at least 1: the Admin SDKs' bounds.
      let least = kind == .md5 ? 0 : 1
      algorithm = .digest(
        kind, rounds: try number(upload.rounds, .rounds, in: least...Ceiling.digestRounds),
        saltFirst: upload.passwordHashOrder != .passwordAndSalt)
    case let other?:
      let usable: [HashAlgorithm] = [
        .scrypt, .standardScrypt, .pbkdf2SHA256, .pbkdfSHA1, .hmacSHA256, .hmacSHA1, .md5, .sha1, .sha256, .sha512,
      ]
      throw FirebaseFailure(
        .unsupportedHashAlgorithm,
        "\(other.rawValue) hashes cannot be verified here. Import them with "
          + (usable + [.hmacSHA512]).map(\.rawValue).joined(separator: ", ")
          + (Bcrypt.isAvailable ? " or BCRYPT" : " (BCRYPT on Linux)")
          + ", or without passwordHash (the users then reset their passwords).")
    }
  }

  /// One user of the upload, as the Admin SDKs send it, its password hash in the stored form.
  ///
  /// - Throws: `INVALID_ARGUMENT` for a hash, salt or date that is not one.
  func account(_ user: AccountRecord) throws -> ImportedAccount {
    var account = ImportedAccount(uid: user.localId ?? "")
    account.email = user.email
    account.phoneNumber = user.phoneNumber
    account.emailVerified = user.emailVerified ?? false
    account.displayName = user.displayName
    account.photoURL = user.photoUrl.flatMap(URL.init(string:))
    account.disabled = user.disabled ?? false
    account.customAttributes = user.customAttributes
    account.rawPassword = user.rawPassword
    if let hash = user.passwordHash, algorithm == .none, let exported = try Self.exported(hash) {
      // An emulator export's: the Firebase emulator's password in clear, or this backend's hash.
      switch exported {
      case .clear(let password): account.rawPassword = password
      case .hashed(let stored): account.password = stored
      }
    } else if let hash = user.passwordHash {
      account.password = try self.hash(hash, salt: user.salt)
    }
    let milliseconds = 0...253_402_300_799_999 as ClosedRange<Int64>
    account.createdAt = try RequestNumber.integer(query: user.createdAt, field: "createdAt", in: milliseconds)
      .map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    account.lastLoginAt = try RequestNumber.integer(query: user.lastLoginAt, field: "lastLoginAt", in: milliseconds)
      .map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    account.providers = (user.providerUserInfo ?? []).compactMap { entry in
      guard let provider = entry.providerId, let rawID = entry.rawId else { return nil }
      return ProviderInfo(
        providerID: ProviderID(rawValue: provider), rawID: rawID, email: entry.email?.lowercased(),
        displayName: entry.displayName, photoURL: entry.photoUrl.flatMap(URL.init(string:)))
    }
    account.phoneSecondFactors = try (user.mfaInfo ?? []).map { factor in
      // The emulator's exports keep the whole number apart from a masked `phoneInfo`.
      guard let number = factor.unobfuscatedPhoneInfo ?? factor.phoneInfo else {
        throw FirebaseFailure(
          .invalidArgument, "second factor not supported: only SMS factors (phoneInfo) can be imported")
      }
      return (
        factor.mfaEnrollmentId, factor.displayName, number,
        factor.enrolledAt.flatMap { try? Date($0, strategy: .iso8601) }
      )
    }
    return account
  }

  /// A password as an emulator export writes it (``EmulatorExport``).
  enum ExportedPassword {
    case clear(String)
    case hashed(PasswordHash)
  }

  /// The password of an export's `passwordHash`: the Firebase emulator's
  /// `fakeHash:salt=S:password=P`, or this backend's `signinkitHash:…`; `nil` for any other hash.
  ///
  /// - Throws: `INVALID_ARGUMENT` for one of those two that is malformed.
  static func exported(_ hash: String) throws(FirebaseFailure) -> ExportedPassword? {
    if hash.hasPrefix(EmulatorExport.emulatorPrefix) {
      guard let range = hash.range(of: ":password=") else {
        throw FirebaseFailure(.invalidArgument, "a fakeHash passwordHash has no password= part")
      }
      return .clear(String(hash[range.upperBound...]))
    }
    if hash.hasPrefix(EmulatorExport.ownPrefix) {
      guard let bytes = Base64URL.decode(String(hash.dropFirst(EmulatorExport.ownPrefix.count))),
        let stored = try? JSONDecoder().decode(PasswordHash.self, from: Data(bytes))
      else {
        throw FirebaseFailure(.invalidArgument, "a signinkitHash passwordHash is damaged")
      }
      return .hashed(stored)
    }
    return nil
  }

  /// The stored form of one user's `passwordHash` and `salt` (base64, standard or URL-safe).
  ///
  /// - Throws: `MISSING_HASH_ALGORITHM` when the upload named none, `INVALID_ARGUMENT` for a
  ///   hash or salt that is not base64 or has the wrong length.
  func hash(_ hash: String, salt: String?) throws(FirebaseFailure) -> PasswordHash {
    guard let bytes = Base64URL.decode(hash), let saltBytes = Base64URL.decode(salt ?? "") else {
      throw FirebaseFailure(.invalidArgument, "passwordHash and salt must be base64")
    }
    switch algorithm {
    case .none:
      throw FirebaseFailure(.missingHashAlgorithm, "name the hashAlgorithm of the passwordHash values")
    case .scrypt(let n, let r, let p, let length):
      guard bytes.count == length else {
        throw FirebaseFailure(.invalidArgument, "a passwordHash has \(bytes.count) bytes, dkLen says \(length)")
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
      guard (text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$")) && text.utf8.count == 60,
        let cost = Int(text.dropFirst(4).prefix(2)), text.dropFirst(6).hasPrefix("$")
      else {
        throw FirebaseFailure(
          .invalidArgument, "a BCRYPT passwordHash must be the base64 of a 60-character $2b$ string")
      }
      guard cost <= Ceiling.bcryptCost else {
        throw FirebaseFailure(
          .invalidArgument,
          "a BCRYPT passwordHash may have a cost of at most \(Ceiling.bcryptCost); this one has \(cost), which "
            + "takes too long to check. Import it without passwordHash (the user then resets the password).")
      }
      return PasswordHash(algorithm: .bcrypt, salt: "", hash: Base64URL.encode(bytes))
    case .digest(let kind, let rounds, let saltFirst):
      return PasswordHash(
        algorithm: kind, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes), iterations: max(rounds, 1),
        saltFirst: saltFirst)
    case .hmac(let kind, let key, let saltFirst):
      return PasswordHash(
        algorithm: kind, salt: Base64URL.encode(saltBytes), hash: Base64URL.encode(bytes), key: Base64URL.encode(key),
        saltFirst: saltFirst)
    }
  }
}
