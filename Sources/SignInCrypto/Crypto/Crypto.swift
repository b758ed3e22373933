#if canImport(CLibcrypto)
  import CLibcrypto
  import Foundation

  /// The cryptographic primitives SignInKit uses, all from OpenSSL's libcrypto: SHA-256,
  /// HMAC-SHA256, secure random bytes, scrypt, and (in ``RSAPrivateKey`` / ``RSAPublicKey``)
  /// RSA-2048 with RS256. Nothing here is implemented by hand.
  ///
  /// - Concurrency: stateless functions, callable from any isolation.
  package enum Crypto {
    /// SHA-256 of `data`.
    package static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let ok = Array(data).withUnsafeBytes { input in
        EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
      }
      precondition(ok == 1, "EVP_Digest(SHA-256) failed")
      return Array(digest.prefix(Int(length)))
    }

    /// SHA-256 of `data` as lowercase hex (Apple's nonce claim, digests of stored secrets).
    package static func sha256Hex(_ data: some Collection<UInt8>) -> String {
      sha256(data).map { String(format: "%02x", $0) }.joined()
    }

    /// HMAC-SHA256 of `data` under `key`.
    package static func hmacSHA256(key: some Collection<UInt8>, data: some Collection<UInt8>)
      -> [UInt8]
    {
      var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let key = Array(key)
      let result = Array(data).withUnsafeBytes { input in
        key.withUnsafeBytes { key in
          HMAC(
            EVP_sha256(), key.baseAddress, Int32(key.count),
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, &mac, &length)
        }
      }
      precondition(result != nil, "HMAC(SHA-256) failed")
      return Array(mac.prefix(Int(length)))
    }

    /// `count` bytes from the operating system's secure random source.
    package static func randomBytes(_ count: Int) throws -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: count)
      guard RAND_bytes(&bytes, Int32(count)) == 1 else {
        throw CryptoError.openSSL("RAND_bytes failed")
      }
      return bytes
    }

    /// scrypt (RFC 7914) of `password` with `salt`, cost `n` (a power of two), block size `r`,
    /// parallelism `p`, giving `length` bytes.
    package static func scrypt(
      password: some Collection<UInt8>, salt: some Collection<UInt8>, n: UInt64, r: UInt64,
      p: UInt64, length: Int
    ) throws -> [UInt8] {
      var key = [UInt8](repeating: 0, count: length)
      let password = Array(password)
      let salt = Array(salt)
      // Room for the 128·r·N working set plus the 128·r·p buffer, and some slack.
      let memory = 128 * r * (n + p + 2) + 1024 * 1024
      let ok = password.withUnsafeBytes { password in
        salt.withUnsafeBytes { salt in
          EVP_PBE_scrypt(
            password.baseAddress?.assumingMemoryBound(to: CChar.self), password.count,
            salt.baseAddress?.assumingMemoryBound(to: UInt8.self), salt.count, n, r, p, memory,
            &key, length)
        }
      }
      guard ok == 1 else { throw CryptoError.openSSL("scrypt(N=\(n), r=\(r), p=\(p)) failed") }
      return key
    }

    /// The PKCE S256 code challenge of `verifier` (RFC 7636 §4.2):
    /// BASE64URL(SHA256(ASCII(verifier))).
    package static func pkceChallenge(verifier: String) -> String {
      Base64URL.encode(sha256(Array(verifier.utf8)))
    }
  }
#endif
