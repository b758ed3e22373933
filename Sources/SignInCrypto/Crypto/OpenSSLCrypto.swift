#if canImport(CLibcrypto)
  import CLibcrypto
  import Foundation

  /// ``CryptoPrimitives`` over OpenSSL 3's libcrypto (`EVP_*`, `PKCS5_PBKDF2_HMAC`,
  /// `EVP_PBE_scrypt`, `X509_*`). Every OpenSSL call SignInKit makes is in this file.
  ///
  /// - Concurrency: stateless functions, callable from any isolation.
  enum OpenSSLCrypto: CryptoPrimitives {
    static func sha256(_ data: [UInt8]) -> [UInt8] {
      var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let ok = data.withUnsafeBytes { input in
        EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
      }
      precondition(ok == 1, "EVP_Digest(SHA-256) failed")
      return Array(digest.prefix(Int(length)))
    }

    static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
      hmac(EVP_sha256(), "SHA-256", key: key, data: data)
    }

    static func digest(_ algorithm: DigestAlgorithm, _ data: [UInt8]) -> [UInt8] {
      let md: OpaquePointer? =
        switch algorithm {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        }
      var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let ok = data.withUnsafeBytes { input in
        EVP_Digest(input.baseAddress, input.count, &digest, &length, md, nil)
      }
      precondition(ok == 1, "EVP_Digest(\(algorithm)) failed")
      return Array(digest.prefix(Int(length)))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
      guard a.count == b.count else { return false }
      return a.withUnsafeBytes { a in
        b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
      }
    }

    static func hmacSHA1(key: [UInt8], data: [UInt8]) -> [UInt8] {
      hmac(EVP_sha1(), "SHA-1", key: key, data: data)
    }

    static func hmacSHA512(key: [UInt8], data: [UInt8]) -> [UInt8] {
      hmac(EVP_sha512(), "SHA-512", key: key, data: data)
    }

    static func aes256CTR(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
      guard key.count == 32, iv.count == 16 else {
        throw CryptoError("AES-256-CTR needs a 32-byte key and a 16-byte IV")
      }
      guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL("EVP_CIPHER_CTX_new failed") }
      defer { EVP_CIPHER_CTX_free(context) }
      var output = [UInt8](repeating: 0, count: data.count + 16)
      var written: Int32 = 0
      var finished: Int32 = 0
      guard EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, key, iv) == 1,
        EVP_EncryptUpdate(context, &output, &written, data, Int32(data.count)) == 1,
        output.withUnsafeMutableBufferPointer({ buffer in
          EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &finished)
        }) == 1
      else { throw CryptoError.openSSL("AES-256-CTR failed") }
      return Array(output.prefix(Int(written + finished)))
    }

    private static func hmac(_ digest: OpaquePointer?, _ name: String, key: [UInt8], data: [UInt8]) -> [UInt8] {
      var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
      var length: UInt32 = 0
      let result = data.withUnsafeBytes { input in
        key.withUnsafeBytes { key in
          HMAC(
            digest, key.baseAddress, Int32(key.count),
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, &mac, &length)
        }
      }
      precondition(result != nil, "HMAC(\(name)) failed")
      return Array(mac.prefix(Int(length)))
    }

    static func randomBytes(_ count: Int) throws -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: count)
      guard RAND_bytes(&bytes, Int32(count)) == 1 else {
        throw CryptoError.openSSL("RAND_bytes failed")
      }
      return bytes
    }

    static let isScryptAvailable = true

    static func scrypt(
      password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int
    ) throws -> [UInt8] {
      var key = [UInt8](repeating: 0, count: length)
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

    static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws
      -> [UInt8]
    {
      try pbkdf2(EVP_sha256(), "SHA256", password: password, salt: salt, iterations: iterations, length: length)
    }

    static func pbkdf2SHA1(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
      try pbkdf2(EVP_sha1(), "SHA1", password: password, salt: salt, iterations: iterations, length: length)
    }

    private static func pbkdf2(
      _ digest: OpaquePointer?, _ name: String, password: [UInt8], salt: [UInt8], iterations: Int, length: Int
    ) throws -> [UInt8] {
      var key = [UInt8](repeating: 0, count: length)
      let ok = password.withUnsafeBytes { password in
        salt.withUnsafeBytes { salt in
          PKCS5_PBKDF2_HMAC(
            password.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count),
            salt.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(salt.count),
            Int32(iterations), digest, Int32(length), &key)
        }
      }
      guard ok == 1 else { throw CryptoError.openSSL("PBKDF2-HMAC-\(name)(\(iterations)) failed") }
      return key
    }

    // MARK: - RSA keys

    static func generateRSA(bits: Int) throws -> [UInt8] {
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
      return try OpenSSLKey.der(of: key, isPrivate: true)
    }

    static func der(pem: String, isPrivate: Bool) throws -> [UInt8] {
      let key = try OpenSSLKey.read(pem: pem, isPrivate: isPrivate)
      defer { EVP_PKEY_free(key) }
      return try OpenSSLKey.der(of: key, isPrivate: isPrivate)
    }

    static func pem(der: [UInt8], isPrivate: Bool) throws -> String {
      try OpenSSLKey.pem(der: der, isPrivate: isPrivate)
    }

    static func der(jwk members: [String: [UInt8]], isPrivate: Bool) throws -> [UInt8] {
      let names: [(String, String)] =
        isPrivate
        ? [
          ("n", OSSL_PKEY_PARAM_RSA_N), ("e", OSSL_PKEY_PARAM_RSA_E), ("d", OSSL_PKEY_PARAM_RSA_D),
          ("p", "rsa-factor1"), ("q", "rsa-factor2"), ("dp", "rsa-exponent1"),
          ("dq", "rsa-exponent2"), ("qi", "rsa-coefficient1"),
        ]
        : [("n", OSSL_PKEY_PARAM_RSA_N), ("e", OSSL_PKEY_PARAM_RSA_E)]
      let key = try OpenSSLKey.fromJWK(
        members, names: names,
        selection: isPrivate ? SIGNINKIT_EVP_PKEY_KEYPAIR : SIGNINKIT_EVP_PKEY_PUBLIC_KEY)
      defer { EVP_PKEY_free(key) }
      return try OpenSSLKey.der(of: key, isPrivate: isPrivate)
    }

    static func components(ofPublicKey der: [UInt8]) throws -> (n: [UInt8], e: [UInt8]) {
      let key = try OpenSSLKey.load(der: der, isPrivate: false)
      defer { EVP_PKEY_free(key) }
      return (
        try OpenSSLKey.bigNumber(key, OSSL_PKEY_PARAM_RSA_N),
        try OpenSSLKey.bigNumber(key, OSSL_PKEY_PARAM_RSA_E)
      )
    }

    static func bits(ofPublicKey der: [UInt8]) throws -> Int {
      let key = try OpenSSLKey.load(der: der, isPrivate: false)
      defer { EVP_PKEY_free(key) }
      return Int(EVP_PKEY_get_bits(key))
    }

    static func publicKey(ofPrivateKey der: [UInt8]) throws -> [UInt8] {
      let key = try OpenSSLKey.load(der: der, isPrivate: true)
      defer { EVP_PKEY_free(key) }
      return try OpenSSLKey.der(of: key, isPrivate: false)
    }

    static func signRS256(privateKey der: [UInt8], message: [UInt8]) throws -> [UInt8] {
      try digestSign(privateKey: der, type: "RSA", message: message)
    }

    static func verifyRS256(publicKey der: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool {
      digestVerify(publicKey: der, type: "RSA", signature: signature, message: message)
    }

    /// A SHA-256 signature of `message` under a private key of `type` (`RSA`: PKCS#1 v1.5;
    /// `EC`: ECDSA, DER); a key of another type is refused, so one algorithm never stands in
    /// for another.
    private static func digestSign(privateKey der: [UInt8], type: String, message: [UInt8]) throws -> [UInt8] {
      let key = try OpenSSLKeyCache.shared.key(der: der, isPrivate: true)
      defer { EVP_PKEY_free(key) }
      guard EVP_PKEY_is_a(key, type) == 1 else { throw CryptoError("the private key is not an \(type) key") }
      guard let context = EVP_MD_CTX_new() else { throw CryptoError.openSSL("EVP_MD_CTX_new") }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
        throw CryptoError.openSSL("EVP_DigestSignInit failed")
      }
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

    /// Whether `signature` is a SHA-256 signature of `message` under a public key of `type`.
    private static func digestVerify(publicKey der: [UInt8], type: String, signature: [UInt8], message: [UInt8])
      -> Bool
    {
      guard let key = try? OpenSSLKeyCache.shared.key(der: der, isPrivate: false) else { return false }
      defer { EVP_PKEY_free(key) }
      guard EVP_PKEY_is_a(key, type) == 1, let context = EVP_MD_CTX_new() else { return false }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
      let ok = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
      ERR_clear_error()
      return ok
    }

    // MARK: - P-256 keys

    static func generateP256() throws -> [UInt8] {
      guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
        throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(EC) failed")
      }
      defer { EVP_PKEY_CTX_free(context) }
      var key: OpaquePointer?
      guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
        EVP_PKEY_generate(context, &key) == 1, let key
      else { throw CryptoError.openSSL("P-256 key generation failed") }
      defer { EVP_PKEY_free(key) }
      return try OpenSSLKey.der(of: key, isPrivate: true)
    }

    static func p256PublicKey(x: [UInt8], y: [UInt8]) throws -> [UInt8] {
      guard x.count == 32, y.count == 32 else { throw CryptoError("a P-256 point has 32-byte coordinates") }
      guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError.openSSL("OSSL_PARAM_BLD_new") }
      defer { OSSL_PARAM_BLD_free(builder) }
      // The builder keeps these pointers until the parameters are used: they must outlive them.
      let group = strdup("P-256")
      let groupName = strdup(OSSL_PKEY_PARAM_GROUP_NAME)
      let publicName = strdup(OSSL_PKEY_PARAM_PUB_KEY)
      defer {
        free(group)
        free(groupName)
        free(publicName)
      }
      let point = [UInt8(4)] + x + y
      let built = point.withUnsafeBytes { point -> UnsafeMutablePointer<OSSL_PARAM>? in
        guard OSSL_PARAM_BLD_push_utf8_string(builder, groupName, group, 0) == 1,
          OSSL_PARAM_BLD_push_octet_string(builder, publicName, point.baseAddress, point.count) == 1
        else { return nil }
        return OSSL_PARAM_BLD_to_param(builder)
      }
      guard let built else { throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param(P-256)") }
      defer { OSSL_PARAM_free(built) }
      guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
        throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(EC)")
      }
      defer { EVP_PKEY_CTX_free(context) }
      var key: OpaquePointer?
      guard EVP_PKEY_fromdata_init(context) == 1,
        EVP_PKEY_fromdata(context, &key, SIGNINKIT_EVP_PKEY_PUBLIC_KEY, built) == 1, let key
      else { throw CryptoError.openSSL("the coordinates are not a P-256 public key") }
      defer { EVP_PKEY_free(key) }
      // fromdata does not check the point; a public-key check does.
      guard let check = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { throw CryptoError.openSSL("EVP_PKEY_CTX") }
      defer { EVP_PKEY_CTX_free(check) }
      guard EVP_PKEY_public_check(check) == 1 else {
        ERR_clear_error()
        throw CryptoError("the point is not on the P-256 curve")
      }
      return try OpenSSLKey.der(of: key, isPrivate: false)
    }

    static func p256Point(ofPublicKey der: [UInt8]) throws -> (x: [UInt8], y: [UInt8]) {
      let key = try OpenSSLKey.load(der: der, isPrivate: false)
      defer { EVP_PKEY_free(key) }
      var point = [UInt8](repeating: 0, count: 65)
      var length = 0
      guard EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, &point, point.count, &length) == 1,
        length == 65, point[0] == 4
      else { throw CryptoError.openSSL("the key is not an uncompressed P-256 point") }
      return (Array(point[1..<33]), Array(point[33..<65]))
    }

    static func p256PublicKey(ofPrivateKey der: [UInt8]) throws -> [UInt8] {
      try publicKey(ofPrivateKey: der)
    }

    static func signES256(privateKey der: [UInt8], message: [UInt8]) throws -> [UInt8] {
      try digestSign(privateKey: der, type: "EC", message: message)
    }

    static func verifyES256(publicKey der: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool {
      digestVerify(publicKey: der, type: "EC", signature: signature, message: message)
    }

    // MARK: - Certificates

    static func certificate(
      privateKey der: [UInt8], commonName: String, notBefore: Date, lifetime: TimeInterval
    ) throws -> String {
      let privateKey = try OpenSSLKey.load(der: der, isPrivate: true)
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

    static func publicKey(inCertificate pem: String) throws -> [UInt8] {
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
      return try OpenSSLKey.der(of: key, isPrivate: false)
    }
  }

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

    /// The DER of `key`: PKCS#8 when private, SubjectPublicKeyInfo otherwise.
    static func der(of key: OpaquePointer, isPrivate: Bool) throws -> [UInt8] {
      guard isPrivate else { return try encode { i2d_PUBKEY(key, $0) } }
      // PKCS#8 (`i2d_PrivateKey` would write RSA's traditional PKCS#1 form).
      guard let info = EVP_PKEY2PKCS8(key) else { throw CryptoError.openSSL("EVP_PKEY2PKCS8") }
      defer { PKCS8_PRIV_KEY_INFO_free(info) }
      return try encode { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }

    /// A key built from decoded JWK members; `names` pairs each JWK name with its OpenSSL
    /// parameter.
    static func fromJWK(
      _ members: [String: [UInt8]], names: [(String, String)], selection: Int32
    ) throws -> OpaquePointer {
      guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError.openSSL("OSSL_PARAM_BLD_new") }
      defer { OSSL_PARAM_BLD_free(builder) }
      // The builder and the parameters it makes keep the name pointers without copying them, so
      // the names must outlive `EVP_PKEY_fromdata` (a bridged Swift string lives for one call).
      let parameters = names.map { strdup($0.1) }
      defer { for parameter in parameters { free(parameter) } }
      var numbers: [OpaquePointer] = []
      defer { for number in numbers { BN_free(number) } }
      for ((member, _), parameter) in zip(names, parameters) {
        guard let bytes = members[member], !bytes.isEmpty,
          let number = BN_bin2bn(bytes, Int32(bytes.count), nil)
        else { throw CryptoError("the JWK member \"\(member)\" is missing or not base64url") }
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, parameter, number) == 1 else {
          throw CryptoError.openSSL("OSSL_PARAM_BLD_push_BN(\(member))")
        }
      }
      guard let built = OSSL_PARAM_BLD_to_param(builder) else {
        throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param")
      }
      defer { OSSL_PARAM_free(built) }
      guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
        throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(RSA)")
      }
      defer { EVP_PKEY_CTX_free(context) }
      var key: OpaquePointer?
      guard EVP_PKEY_fromdata_init(context) == 1,
        EVP_PKEY_fromdata(context, &key, selection, built) == 1, let key
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

  extension CryptoError {
    /// An error carrying `what` failed and the newest OpenSSL error queue entry, which is drained.
    static func openSSL(_ what: String) -> CryptoError {
      var detail = ""
      var code = ERR_get_error()
      while code != 0 {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        detail = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        code = ERR_get_error()
      }
      return CryptoError(detail.isEmpty ? what : "\(what): \(detail)")
    }
  }
#endif
