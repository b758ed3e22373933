import Foundation
import SignInConcurrency
import SignInKit
import Testing

/// What each OpenID peer must show about the issuer's own session, run against each peer's
/// provider: one refresh for a thousand callers after expiry, and a scope added after sign-in.
enum OIDCPeerChecks {
  /// Counts the refresh grants that reach the issuer.
  struct CountingTransport: HTTPTransport {
    let refreshes = Locked(0)
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      if String(decoding: request.body, as: UTF8.self).contains("grant_type=refresh_token") {
        refreshes.withLock { $0 += 1 }
      }
      return try await URLSessionTransport().send(request)
    }
  }

  /// Signs in, moves `now` past the access token's expiry (`lifetime` and more), then asks for a
  /// fresh token from a thousand tasks at once: one refresh reaches the issuer, and all get its
  /// token.
  static func aThousandCallersAfterExpiryShareOneRefresh(
    _ provider: OpenIDConnectProvider, transport: CountingTransport, now: Locked<Date>, lifetime: TimeInterval
  ) async throws {
    _ = try await provider.credential()
    let first = try await provider.freshAccessToken()
    #expect(transport.refreshes.withLock { $0 } == 0)
    now.withLock { $0 = $0.addingTimeInterval(lifetime + 3600) }
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<1_000 { group.addTask { try await provider.freshAccessToken() } }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(tokens.count == 1 && !tokens.contains(first))
    #expect(transport.refreshes.withLock { $0 } == 1)
  }

  /// Signs in with `openid email`, then adds `address` and reads it back from the granted scopes.
  static func aScopeIsAddedAfterSignIn(_ provider: OpenIDConnectProvider) async throws {
    _ = try await provider.credential()
    #expect(await !provider.grantedScopes.contains("address"))
    let granted = try await provider.addScopes(["address"])
    #expect(granted.contains("address") && granted.contains("email"))
    #expect(try await provider.freshAccessToken().isEmpty == false)
  }
}
