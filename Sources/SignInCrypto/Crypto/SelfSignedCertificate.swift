#if canImport(CLibcrypto)
  import CLibcrypto
  import Foundation

  /// A self-signed X.509 certificate for an RSA key: the form in which Google publishes the keys
  /// that sign Firebase ID tokens (`{kid: PEM certificate}`), so verifiers that expect
  /// certificates (firebase-admin) accept keys published this way.
  ///
  /// - Concurrency: stateless functions, any isolation.
  package enum SelfSignedCertificate {
    /// A PEM `CERTIFICATE` for `key`, with common name `commonName`, valid from `notBefore` for
    /// `lifetime` seconds, signed by `key` itself with SHA-256.
    package static func pem(
      for key: RSAPrivateKey, commonName: String, notBefore: Date, lifetime: TimeInterval
    ) throws -> String {
      let privateKey = try OpenSSLKey.load(der: key.der, isPrivate: true)
      defer { EVP_PKEY_free(privateKey) }
      guard let certificate = X509_new() else { throw CryptoError.openSSL("X509_new") }
      defer { X509_free(certificate) }
      let start = Int(notBefore.timeIntervalSince1970)
      var startTime = time_t(start)
      guard X509_set_version(certificate, 2) == 1,
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), start) == 1,
        X509_time_adj_ex(X509_getm_notBefore(certificate), 0, 0, &startTime) != nil,
        X509_time_adj_ex(X509_getm_notAfter(certificate), 0, Int(lifetime), &startTime) != nil,
        X509_set_pubkey(certificate, privateKey) == 1,
        let name = X509_get_subject_name(certificate),
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1,
        X509_set_issuer_name(certificate, name) == 1,
        X509_sign(certificate, privateKey, EVP_sha256()) > 0
      else { throw CryptoError.openSSL("building the self-signed certificate failed") }
      guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.openSSL("BIO_new") }
      defer { BIO_free(bio) }
      guard PEM_write_bio_X509(bio, certificate) == 1 else {
        throw CryptoError.openSSL("PEM_write_bio_X509")
      }
      return try OpenSSLKey.text(of: bio)
    }

    /// The public key inside a PEM certificate.
    package static func publicKey(inCertificate pem: String) throws -> RSAPublicKey {
      let bytes = Array(pem.utf8)
      let certificate = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
        defer { BIO_free(bio) }
        return PEM_read_bio_X509(bio, nil, nil, nil)
      }
      guard let certificate else { throw CryptoError.openSSL("not a PEM CERTIFICATE block") }
      defer { X509_free(certificate) }
      guard let key = X509_get_pubkey(certificate) else { throw CryptoError.openSSL("X509_get_pubkey") }
      defer { EVP_PKEY_free(key) }
      return try RSAPublicKey(key)
    }
  }
#endif
