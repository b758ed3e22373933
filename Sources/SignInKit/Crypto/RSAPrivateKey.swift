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

    /// The key kept in the PEM file at `url`, generating and saving one (mode 0600) when there is
    /// no file yet.
    ///
    /// An existing file is never replaced: every token the key signed, and every session that
    /// holds one, depends on it. A file that cannot be read (another user's, a disk error) or
    /// decoded (not UTF-8, not a key) is an error and is left as it is. A new key is written with
    /// ``AtomicFile/create(_:at:mode:)``, so when two processes start at once the second reads
    /// the first one's key instead of overwriting it.
    ///
    /// - Throws: ``AuthError`` with code ``AuthError/Code/storage`` naming the file.
    package static func loadOrCreate(at url: URL) throws -> RSAPrivateKey {
      if let existing = try load(at: url) { return existing }
      let key = try generate()
      guard try AtomicFile.create(Data(try key.pem.utf8), at: url, mode: 0o600) else {
        // Another process created it first: use theirs.
        guard let theirs = try load(at: url) else {
          throw AuthError(.storage, "The key file \(url.path) vanished while it was being created. Try again.")
        }
        return theirs
      }
      return key
    }

    private static func load(at url: URL) throws -> RSAPrivateKey? {
      guard let data = try FileContents.read(url, what: "The key file") else { return nil }
      do {
        guard let pem = String(data: data, encoding: .utf8) else { throw CryptoError("it is not UTF-8 text") }
        return try RSAPrivateKey(pem: pem)
      } catch {
        throw AuthError(
          .storage,
          "The key file \(url.path) is not a usable key (\(error)). It was left as it is. Restore it "
            + "from a backup, or move it away to start with a new key (tokens it signed then stop verifying).")
      }
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
