/// How an import's password hashes were made (`hashAlgorithm` of `accounts:batchCreate`).
///
/// - Concurrency: `Sendable` value.
package enum HashAlgorithm: String, WireEnum {
  case hmacSHA512 = "HMAC_SHA512"
  case hmacSHA256 = "HMAC_SHA256"
  case hmacSHA1 = "HMAC_SHA1"
  case hmacMD5 = "HMAC_MD5"
  case md5 = "MD5"
  case pbkdfSHA1 = "PBKDF_SHA1"
  case bcrypt = "BCRYPT"
  case pbkdf2SHA256 = "PBKDF2_SHA256"
  case sha256 = "SHA256"
  case sha1 = "SHA1"
  case scrypt = "SCRYPT"
  case standardScrypt = "STANDARD_SCRYPT"
  case sha512 = "SHA512"

  package var protoNumber: Int { Self.allCases.firstIndex(of: self)! + 1 }
}

/// Which comes first in an HMAC import's message (`passwordHashOrder`).
///
/// - Concurrency: `Sendable` value.
package enum PasswordHashOrder: String, WireEnum {
  case saltAndPassword = "SALT_AND_PASSWORD"
  case passwordAndSalt = "PASSWORD_AND_SALT"

  package var protoNumber: Int { self == .saltAndPassword ? 1 : 2 }
}
