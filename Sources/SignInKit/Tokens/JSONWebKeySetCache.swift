#if canImport(CLibcrypto)
  import Foundation

  /// Published keys per issuer, fetched on first use and fetched again (once, shared by
  /// concurrent callers) when a token names a `kid` the cached set does not have: the issuer has
  /// rotated its keys.
  ///
  /// - Concurrency: actor. A fetch in flight is shared: concurrent callers for the same issuer
  ///   make one fetch. Cancellation of a caller cancels only its wait.
  package actor JSONWebKeySetCache {
    private let fetch: @Sendable (String) async throws -> JSONWebKeySet
    private var sets: [String: JSONWebKeySet] = [:]
    private var fetches: [String: SingleFlight<JSONWebKeySet>] = [:]

    /// - Parameter fetch: loads the key set of an issuer (its `jwks_uri`).
    package init(fetch: @escaping @Sendable (String) async throws -> JSONWebKeySet) {
      self.fetch = fetch
    }

    /// The key set to verify a token from `issuer` signed with `kid`: the cached one when it has
    /// the key, otherwise a freshly fetched one.
    package func keys(issuer: String, kid: String?) async throws -> JSONWebKeySet {
      if let cached = sets[issuer], cached.key(for: kid) != nil { return cached }
      let flight = fetches[issuer] ?? SingleFlight<JSONWebKeySet>()
      fetches[issuer] = flight
      let fetch = self.fetch
      let fresh = try await flight.run { try await fetch(issuer) }
      sets[issuer] = fresh
      return fresh
    }

    /// Verifies `token` from `verifier.issuer`, refetching the issuer's keys once when the
    /// token's `kid` is unknown.
    package func verify(_ token: String, with verifier: JWTVerifier, nonce: String? = nil)
      async throws -> JSONWebToken
    {
      let kid = try JSONWebToken(decoding: token).keyID
      let keys = try await keys(issuer: verifier.issuer, kid: kid)
      return try verifier.verify(token, keys: keys, nonce: nonce)
    }
  }
#endif
