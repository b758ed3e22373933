import Foundation

/// Where an identity provider's refresh token is kept between launches, so
/// ``OpenIDConnectProvider/restoreSession()`` can bring the issuer's session back (and Google
/// API calls keep working) without a new sign-in: the same seam as the session's store, the
/// keychain on Apple platforms and a private file elsewhere
/// (``OpenIDConnectProvider/Configuration/defaultRefreshTokenStore(for:namespace:)``).
///
/// - Concurrency: `Sendable`; calls may come from any thread.
public protocol ProviderTokenStore: Sendable {
  /// What was stored; `nil` when there is none. `OpenIDConnectProvider` stores an opaque string
  /// holding the refresh token and the scopes granted with it; treat it as a secret.
  ///
  /// - Throws: ``AuthError/Code/storage`` when it cannot be read (a locked keychain, a file
  ///   that cannot be read); nothing is deleted.
  func load() throws -> String?
  /// Stores `refreshToken` (the provider's session, opaque), replacing what was stored.
  func save(_ refreshToken: String) throws
  /// Deletes the stored token; nothing stored is not an error.
  func clear() throws
}

extension OpenIDConnectProvider.Configuration {
  /// Where `provider`'s refresh token is kept unless told: the keychain on Apple platforms
  /// (``KeychainProviderTokenStore``), a private file elsewhere (``FileProviderTokenStore``,
  /// beside ``FileSessionStore``'s file). The one place the choice is made.
  public static func defaultRefreshTokenStore(for provider: ProviderID, namespace: String = "default")
    -> any ProviderTokenStore
  {
    #if canImport(Security)
      KeychainProviderTokenStore(provider: provider, namespace: namespace, keychain: SystemKeychain())
    #else
      FileProviderTokenStore(
        file: FileSessionStore.defaultDirectory(namespace: namespace, environment: ProcessInfo.processInfo.environment)
          .appendingPathComponent("\(provider.rawValue).refresh-token"))
    #endif
  }
}
