#if canImport(CLibcrypto)
  import CLibcrypto
  import Foundation

  /// An RSA private key that signs RS256 (RSASSA-PKCS1-v1_5 with SHA-256).
  ///
  /// Held as PKCS#8 DER bytes, so the value is `Sendable` and needs no cleanup; each operation
  /// loads an OpenSSL key and frees it again.
  ///
  /// - Concurrency: `Sendable` value.
  package struct RSAPrivateKey: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// PKCS#8 DER.
    package let der: [UInt8]

    /// A new key of `bits` bits (2048 unless told) with public exponent 65537.
    package static func generate(bits: Int = 2048) throws -> RSAPrivateKey {
      guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
        throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(RSA) failed")
      }
      defer { EVP_PKEY_CTX_free(context) }
      var key: OpaquePointer?
      guard EVP_PKEY_keygen_init(context) == 1,
        EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
        EVP_PKEY_generate(context, &key) == 1, let key
      else { throw CryptoError.openSSL("RSA-\(bits) key generation failed") }
      defer { EVP_PKEY_free(key) }
      return try RSAPrivateKey(key)
    }

    /// The key in a PEM `PRIVATE KEY` (PKCS#8) block.
    package init(pem: String) throws {
      let key = try OpenSSLKey.read(pem: pem, isPrivate: true)
      defer { EVP_PKEY_free(key) }
      try self.init(key)
    }

    /// The key from its JWK members (RFC 7518 §6.3): base64url `n`, `e`, `d` and the CRT members
    /// `p`, `q`, `dp`, `dq`, `qi` (PKCS#8 cannot hold a key without them).
    package init(jwk: [String: String]) throws {
      let crt = ["p", "q", "dp", "dq", "qi"]
      guard crt.allSatisfy({ jwk[$0] != nil }) else {
        throw CryptoError(
          "the private JWK lacks \(crt.filter { jwk[$0] == nil }.joined(separator: ", ")); it "
            + "needs n, e, d and the CRT members p, q, dp, dq and qi")
      }
      let names: [(String, String)] = [
        ("n", OSSL_PKEY_PARAM_RSA_N), ("e", OSSL_PKEY_PARAM_RSA_E), ("d", OSSL_PKEY_PARAM_RSA_D),
        ("p", "rsa-factor1"), ("q", "rsa-factor2"), ("dp", "rsa-exponent1"),
        ("dq", "rsa-exponent2"), ("qi", "rsa-coefficient1"),
      ]
      let key = try OpenSSLKey.fromJWK(jwk, members: names, selection: SIGNINKIT_EVP_PKEY_KEYPAIR)
      defer { EVP_PKEY_free(key) }
      try self.init(key)
    }

    init(_ key: OpaquePointer) throws {
      der = try OpenSSLKey.encode { i2d_PrivateKey(key, $0) }
    }

    /// PEM `PRIVATE KEY` (PKCS#8).
    package var pem: String {
      get throws { try OpenSSLKey.pem(der: der, isPrivate: true) }
    }

    /// The matching public key.
    package var publicKey: RSAPublicKey {
      get throws {
        let key = try OpenSSLKey.load(der: der, isPrivate: true)
        defer { EVP_PKEY_free(key) }
        return try RSAPublicKey(key)
      }
    }

    /// The RS256 signature of `message`.
    package func signRS256(_ message: some Collection<UInt8>) throws -> [UInt8] {
      let key = try OpenSSLKey.load(der: der, isPrivate: true)
      defer { EVP_PKEY_free(key) }
      guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL("EVP_MD_CTX_new") }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
        throw CryptoError.openSSL("EVP_DigestSignInit failed")
      }
      let message = Array(message)
      var length = 0
      guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
        throw CryptoError.openSSL("EVP_DigestSign (size) failed")
      }
      var signature = [UInt8](repeating: 0, count: length)
      guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
        throw CryptoError.openSSL("EVP_DigestSign failed")
      }
      return Array(signature.prefix(length))
    }

    package var description: String { "RSAPrivateKey(redacted)" }
    package var customMirror: Mirror { Mirror(self, children: ["der": "redacted"]) }
  }
#endif
