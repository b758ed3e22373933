#if canImport(CLibcrypto)
  import CLibcrypto
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Decoded OpenSSL keys by their DER bytes, so a key used again (the embedded backend's
  /// signing key, on every token) is decoded once. OpenSSL 3 decodes a key through its provider
  /// machinery, which costs about twice an RSA-2048 signature.
  ///
  /// It keeps at most `capacity` keys and lets the least recently used go first. A key handed
  /// out carries a reference of its own (`EVP_PKEY_up_ref`) that the caller frees, so letting a
  /// key go never frees one in use. A made key may be used by several threads at once
  /// (openssl-threads(7)).
  ///
  /// - Concurrency: `Sendable`. It is `@unchecked` because the compiler cannot see the lock:
  ///   `keys` and `order` are only read or written while `mutex` is held.
  final class OpenSSLKeyCache: @unchecked Sendable {
    /// The cache the OpenSSL primitives use.
    static let shared = OpenSSLKeyCache(capacity: 16)

    private struct Name: Hashable {
      var der: [UInt8]
      var isPrivate: Bool
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var keys: [Name: OpaquePointer] = [:]
    /// Least recently used first.
    private var order: [Name] = []
    let capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }

    deinit {
      for key in keys.values { EVP_PKEY_free(key) }
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
      mutex.deallocate()
    }

    /// The key for `der` (PKCS#8 private or SubjectPublicKeyInfo public), decoded now or
    /// earlier, with a reference the caller frees with `EVP_PKEY_free`.
    ///
    /// - Throws: ``CryptoError`` when the bytes are not a key.
    func key(der: [UInt8], isPrivate: Bool) throws -> OpaquePointer {
      let name = Name(der: der, isPrivate: isPrivate)
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      let key: OpaquePointer
      if let known = keys[name] {
        key = known
        order.removeAll { $0 == name }
      } else {
        key = try OpenSSLKey.load(der: der, isPrivate: isPrivate)
        keys[name] = key
        if order.count >= capacity, let oldest = order.first, let evicted = keys.removeValue(forKey: oldest) {
          order.removeFirst()
          EVP_PKEY_free(evicted)
        }
      }
      order.append(name)
      EVP_PKEY_up_ref(key)
      return key
    }

    /// How many keys it holds now.
    var count: Int {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return keys.count
    }
  }
#endif
