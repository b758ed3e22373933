import Foundation
import SignInConcurrency

/// Published keys per issuer, fetched on first use and fetched again (once, shared by
/// concurrent callers) when a token names a `kid` the cached set does not have: the issuer has
/// rotated its keys.
///
/// Refetches are rate-limited: after a fetch, an unknown `kid` from the same issuer causes no
/// new fetch for ``minimumRefetchInterval`` (as jose's and Google's verifiers cool down), so a
/// stream of forged tokens with made-up `kid`s costs the issuer at most one request per
/// interval. The token is refused meanwhile, as for a key nobody publishes.
///
/// - Concurrency: actor. A fetch in flight is shared: concurrent callers for the same issuer
///   make one fetch. Cancellation of a caller cancels only its wait.
package actor JSONWebKeySetCache {
  private let fetch: @Sendable (String) async throws -> JSONWebKeySet
  private let seed: @Sendable (String) throws -> JSONWebKeySet?
  private let now: @Sendable () -> Date
  package let minimumRefetchInterval: Duration
  private var sets: [String: JSONWebKeySet] = [:]
  private var fetchedAt: [String: Date] = [:]
  private var fetches: [String: SingleFlight<JSONWebKeySet>] = [:]

  /// - Parameters:
  ///   - seed: the key set to start from for an issuer, if one is known without a fetch (a
  ///     configured or just-discovered set); later refetches still use `fetch`.
  ///   - fetch: loads the key set of an issuer (its `jwks_uri`).
  package init(
    minimumRefetchInterval: Duration = .seconds(30), now: @escaping @Sendable () -> Date = { Date() },
    seed: @escaping @Sendable (String) throws -> JSONWebKeySet? = { _ in nil },
    fetch: @escaping @Sendable (String) async throws -> JSONWebKeySet
  ) {
    self.minimumRefetchInterval = minimumRefetchInterval
    self.now = now
    self.seed = seed
    self.fetch = fetch
  }

  /// The key set to verify a token from `issuer` signed with `kid`: the cached one when it has
  /// the key (or a refetch is not due yet), otherwise a freshly fetched one.
  package func keys(issuer: String, kid: String?) async throws -> JSONWebKeySet {
    if sets[issuer] == nil, let seeded = try seed(issuer) {
      sets[issuer] = seeded
      fetchedAt[issuer] = now()
    }
    if let cached = sets[issuer] {
      if cached.key(for: kid) != nil { return cached }
      if let last = fetchedAt[issuer], now().timeIntervalSince(last) < minimumRefetchInterval.seconds {
        return cached
      }
    }
    let flight = fetches[issuer] ?? SingleFlight<JSONWebKeySet>()
    fetches[issuer] = flight
    let fetch = self.fetch
    let fresh = try await flight.run { try await fetch(issuer) }
    sets[issuer] = fresh
    fetchedAt[issuer] = now()
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
