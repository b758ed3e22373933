#if canImport(CLibcrypto)
  import CLibcrypto
  import Foundation
  import Testing

  @testable import SignInCrypto

  /// Decoded keys kept for reuse: bounded, safe to share across threads, and never a change in
  /// what a signature says.
  @Suite struct OpenSSLKeyCacheTests {
    static let keys = (0..<3).map { _ in try! RSAPrivateKey.generate(bits: 1024) }

    @Test func keepsAtMostItsCapacityAndLetsTheLeastRecentlyUsedGo() throws {
      let cache = OpenSSLKeyCache(capacity: 2)
      for key in Self.keys { EVP_PKEY_free(try cache.key(der: key.der, isPrivate: true)) }
      #expect(cache.count == 2)
      // The first key was let go; asking again decodes it anew, and it still works.
      let again = try cache.key(der: Self.keys[0].der, isPrivate: true)
      defer { EVP_PKEY_free(again) }
      #expect(cache.count == 2)
      #expect(throws: CryptoError.self) { try cache.key(der: [1, 2, 3], isPrivate: true) }
      #expect(cache.count == 2)
    }

    @Test func signaturesStayValidWhenMoreKeysThanItHoldsTakeTurns() throws {
      let message = Array("header.payload".utf8)
      let keys = (0..<(OpenSSLKeyCache.shared.capacity + 2)).map { _ in try! RSAPrivateKey.generate(bits: 1024) }
      for round in 0..<2 {
        for key in keys {
          let signature = try key.signRS256(message)
          #expect(try key.publicKey.verifyRS256(signature: signature, message: message), "round \(round)")
        }
      }
      #expect(OpenSSLKeyCache.shared.count <= OpenSSLKeyCache.shared.capacity)
    }

    @Test func oneKeySignsOnManyThreadsAtOnce() async throws {
      let key = Self.keys[1]
      let publicKey = try key.publicKey
      let message = Array("shared".utf8)
      let valid = try await withThrowingTaskGroup(of: Bool.self) { group in
        for _ in 0..<64 {
          group.addTask { publicKey.verifyRS256(signature: try key.signRS256(message), message: message) }
        }
        return try await group.reduce(true) { $0 && $1 }
      }
      #expect(valid)
    }
  }
#endif
