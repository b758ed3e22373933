#if canImport(CLibcrypto)
  import CLibcrypto

  /// Loading, encoding and converting OpenSSL `EVP_PKEY` handles. Every function that returns a
  /// key hands ownership to the caller, who frees it with `EVP_PKEY_free`.
  enum OpenSSLKey {
    /// DER bytes written by an `i2d_*` function.
    static func encode(
      _ write: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws -> [UInt8] {
      let length = write(nil)
      guard length > 0 else { throw CryptoError.openSSL("DER encoding failed") }
      var bytes = [UInt8](repeating: 0, count: Int(length))
      let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
        return write(&cursor)
      }
      guard written == length else { throw CryptoError.openSSL("DER encoding failed") }
      return bytes
    }

    /// A key from DER (PKCS#8 private or SubjectPublicKeyInfo public).
    static func load(der: [UInt8], isPrivate: Bool) throws -> OpaquePointer {
      let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
        var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
        return isPrivate
          ? d2i_AutoPrivateKey(nil, &cursor, buffer.count) : d2i_PUBKEY(nil, &cursor, buffer.count)
      }
      guard let key else { throw CryptoError.openSSL("the key bytes are not a valid RSA key") }
      return key
    }

    /// A key from a PEM block.
    static func read(pem: String, isPrivate: Bool) throws -> OpaquePointer {
      let bytes = Array(pem.utf8)
      let key = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
        defer { BIO_free(bio) }
        return isPrivate
          ? PEM_read_bio_PrivateKey(bio, nil, nil, nil) : PEM_read_bio_PUBKEY(bio, nil, nil, nil)
      }
      guard let key else {
        throw CryptoError.openSSL(
          "not a PEM \(isPrivate ? "PRIVATE KEY" : "PUBLIC KEY") block; pass the whole -----BEGIN … END----- text")
      }
      guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else {
        EVP_PKEY_free(key)
        throw CryptoError("the PEM key is not an RSA key")
      }
      return key
    }

    /// PEM text for DER key bytes.
    static func pem(der: [UInt8], isPrivate: Bool) throws -> String {
      let key = try load(der: der, isPrivate: isPrivate)
      defer { EVP_PKEY_free(key) }
      guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.openSSL("BIO_new failed") }
      defer { BIO_free(bio) }
      let ok =
        isPrivate
        ? PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil)
        : PEM_write_bio_PUBKEY(bio, key)
      guard ok == 1 else { throw CryptoError.openSSL("PEM encoding failed") }
      return try text(of: bio)
    }

    /// Everything written to a memory BIO, as text.
    static func text(of bio: OpaquePointer) throws -> String {
      var start: UnsafeMutablePointer<CChar>?
      let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &start)
      guard let start, length > 0 else { throw CryptoError.openSSL("PEM encoding failed") }
      return String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self)
    }

    /// A key built from JWK members; `members` pairs each JWK name with its OpenSSL parameter.
    static func fromJWK(
      _ jwk: [String: String], members: [(String, String)], selection: Int32
    ) throws -> OpaquePointer {
      guard jwk["kty"] == nil || jwk["kty"] == "RSA" else {
        throw CryptoError("the JWK has kty \(jwk["kty"]!); only RSA keys are supported")
      }
      guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError.openSSL("OSSL_PARAM_BLD_new") }
      defer { OSSL_PARAM_BLD_free(builder) }
      // The builder and the parameters it makes keep the name pointers without copying them, so
      // the names must outlive `EVP_PKEY_fromdata` (a bridged Swift string lives for one call).
      let names = members.map { strdup($0.1) }
      defer { names.forEach { free($0) } }
      var numbers: [OpaquePointer] = []
      defer { numbers.forEach { BN_free($0) } }
      for ((member, _), parameter) in zip(members, names) {
        guard let text = jwk[member], let bytes = Base64URL.decode(text), !bytes.isEmpty,
          let number = BN_bin2bn(bytes, Int32(bytes.count), nil)
        else { throw CryptoError("the JWK member \"\(member)\" is missing or not base64url") }
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, parameter, number) == 1 else {
          throw CryptoError.openSSL("OSSL_PARAM_BLD_push_BN(\(member))")
        }
      }
      guard let parameters = OSSL_PARAM_BLD_to_param(builder) else {
        throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param")
      }
      defer { OSSL_PARAM_free(parameters) }
      guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
        throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(RSA)")
      }
      defer { EVP_PKEY_CTX_free(context) }
      var key: OpaquePointer?
      guard EVP_PKEY_fromdata_init(context) == 1,
        EVP_PKEY_fromdata(context, &key, selection, parameters) == 1, let key
      else { throw CryptoError.openSSL("the JWK does not describe a valid RSA key") }
      return key
    }

    /// A big-endian integer parameter of `key`.
    static func bigNumber(_ key: OpaquePointer, _ name: String) throws -> [UInt8] {
      var number: OpaquePointer?
      guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
        throw CryptoError.openSSL("EVP_PKEY_get_bn_param(\(name))")
      }
      defer { BN_free(number) }
      var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
      BN_bn2bin(number, &bytes)
      return bytes
    }
  }
#endif
