#if canImport(CLibcrypto)
  import CLibcrypto

  /// An RSA public key that verifies RS256 signatures.
  ///
  /// Held as SubjectPublicKeyInfo DER bytes; each operation loads an OpenSSL key and frees it.
  ///
  /// - Concurrency: `Sendable` value.
  package struct RSAPublicKey: Sendable, Hashable {
    /// SubjectPublicKeyInfo DER.
    package let der: [UInt8]

    /// The key in a PEM `PUBLIC KEY` block.
    package init(pem: String) throws {
      let key = try OpenSSLKey.read(pem: pem, isPrivate: false)
      defer { EVP_PKEY_free(key) }
      try self.init(key)
    }

    /// The key from its JWK members `n` and `e` (base64url, big-endian).
    package init(jwk: [String: String]) throws {
      let key = try OpenSSLKey.fromJWK(
        jwk, members: [("n", OSSL_PKEY_PARAM_RSA_N), ("e", OSSL_PKEY_PARAM_RSA_E)],
        selection: SIGNINKIT_EVP_PKEY_PUBLIC_KEY)
      defer { EVP_PKEY_free(key) }
      try self.init(key)
    }

    init(_ key: OpaquePointer) throws {
      der = try OpenSSLKey.encode { i2d_PUBKEY(key, $0) }
    }

    /// PEM `PUBLIC KEY`.
    package var pem: String {
      get throws { try OpenSSLKey.pem(der: der, isPrivate: false) }
    }

    /// The JWK members `kty`, `n` and `e`.
    package var jwk: [String: String] {
      get throws {
        let key = try OpenSSLKey.load(der: der, isPrivate: false)
        defer { EVP_PKEY_free(key) }
        return [
          "kty": "RSA",
          "n": Base64URL.encode(try OpenSSLKey.bigNumber(key, OSSL_PKEY_PARAM_RSA_N)),
          "e": Base64URL.encode(try OpenSSLKey.bigNumber(key, OSSL_PKEY_PARAM_RSA_E)),
        ]
      }
    }

    /// The size of the modulus in bits; 0 if the key cannot be loaded.
    package var bits: Int {
      guard let key = try? OpenSSLKey.load(der: der, isPrivate: false) else { return 0 }
      defer { EVP_PKEY_free(key) }
      return Int(EVP_PKEY_get_bits(key))
    }

    /// Whether `signature` is a valid RS256 signature of `message` under this key.
    package func verifyRS256(signature: some Collection<UInt8>, message: some Collection<UInt8>)
      -> Bool
    {
      guard let key = try? OpenSSLKey.load(der: der, isPrivate: false) else { return false }
      defer { EVP_PKEY_free(key) }
      guard let context = EVP_MD_CTX_new() else { return false }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
      let signature = Array(signature)
      let message = Array(message)
      let ok = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
      ERR_clear_error()
      return ok
    }
  }
#endif
