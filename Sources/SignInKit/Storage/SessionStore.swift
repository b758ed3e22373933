import Foundation

/// Where ``Auth`` keeps the session between launches.
///
/// Calls are synchronous so that ``Auth`` persists and publishes in one step on its own actor: a
/// state that says `signedIn` is already stored.
///
/// - Concurrency: `Sendable`; only ``Auth`` calls it, from its own actor. Implementations must be
///   safe to call from any thread and must make ``save(_:)`` atomic (old or new, never torn).
public protocol SessionStore: Sendable {
  /// The stored session, or `nil` when there is none.
  /// - Throws: ``AuthError`` with code ``AuthError/Code/storage`` when what is stored cannot be
  ///   read. The store keeps the unreadable data aside (never deletes it) and says where in the
  ///   message.
  func load() throws -> StoredSession?
  /// Replaces the stored session atomically.
  func save(_ session: StoredSession) throws
  /// Removes the stored session; no error when there is none.
  func clear() throws
  /// Whether something is stored, without reading or moving it.
  func containsSession() -> Bool
  /// Replaces the stored session with `session` only while the stored one still belongs to the
  /// same user as `owner`, checked and written as one step under the store's lock (a store that
  /// only one process uses may load, compare and save in turn).
  ///
  /// ``Auth`` saves refreshed tokens and profile changes this way, so a session that another
  /// process cleared (a sign-out there) or replaced (another user signed in there) is never
  /// written back.
  ///
  /// Nor is a newer session of the same user overwritten with an older one: a stored session
  /// whose ``StoredSession/generation`` is higher than `owner`'s was written by someone else
  /// since `owner` was read, and wins.
  ///
  /// - Returns: `false`, writing nothing, when the stored session is gone, is another user's, or
  ///   is newer than `owner`.
  func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool

  /// A small record kept beside the session under `name`, signed in or not: ``Auth`` keeps a
  /// phone verification that waits for its code there, so it survives the app being ended
  /// while the person waits for the text. `nil` when there is none.
  ///
  /// A store of your own that keeps no records returns `nil` here and ignores
  /// ``saveRecord(_:named:)``; a phone verification then does not outlive the app.
  func loadRecord(named name: String) throws -> Data?
  /// Replaces the record `name`; `nil` removes it.
  func saveRecord(_ data: Data?, named name: String) throws

  /// The store that keeps the session of the Identity Platform tenant `tenantID` apart from the
  /// project's and from other tenants': ``Auth`` asks for it when its backend is a tenant's.
  /// Return a store under a name of the tenant's (the provided stores add it to their file or
  /// keychain item); `self` is right only for an app with one tenant, and ``Auth`` still
  /// refuses a stored session of another tenant.
  func scoped(toTenant tenantID: String) -> any SessionStore

  /// A value each time the stored session may have changed, whoever changed it: another process
  /// (an app extension, a second `signin`) or this one. ``Auth`` follows it, so a sign-in,
  /// sign-out or refresh elsewhere reaches this process's streams; it tells its own writes apart
  /// by ``StoredSession/generation``.
  ///
  /// The stream starts with one value once the store watches, so ``Auth`` reads the store then
  /// and misses no change made before; changes close together may come as one value. The stream
  /// ends when the consumer stops. A store that cannot tell returns a stream that ends at once
  /// (the default): ``Auth`` then sees other processes' changes only when it next reads the
  /// store.
  ///
  /// - Throws: ``AuthError/Code/storage`` when the store cannot be watched.
  func changes() throws -> AsyncStream<Void>

  /// Runs `body`, a token refresh, while holding a lock that every process using this store
  /// takes for its refreshes, so that two processes needing a fresh token make one refresh
  /// between them: the second reads the first's result once it has the lock.
  ///
  /// The default runs `body` at once, taking no lock.
  ///
  /// - Cancellation: waiting for the lock is not cancelled (the holder keeps it for one refresh);
  ///   `body` sees the caller's cancellation.
  /// - Throws: what `body` throws; ``AuthError/Code/storage`` when the lock cannot be taken.
  nonisolated(nonsending) func whileRefreshing<T>(_ body: () async throws -> T) async throws -> T

  /// After ``load()`` failed, suspends until the store can be read again when the failure was
  /// the device being locked (a keychain before the first unlock, an app launched in the
  /// background), and returns `true`; returns `false` at once for any other failure. ``Auth``
  /// waits on it at launch instead of reporting the session unreadable.
  ///
  /// The default returns `false`: a file does not wait for an unlock.
  ///
  /// - Cancellation: returns `false` when the calling task is cancelled.
  func waitUntilReadable() async -> Bool
}

extension SessionStore {
  /// A store that cannot tell: a stream that ends at once.
  public func changes() throws -> AsyncStream<Void> { AsyncStream { $0.finish() } }

  /// Nothing to wait for.
  public func waitUntilReadable() async -> Bool { false }

  /// No lock: `body` runs at once.
  public nonisolated(nonsending) func whileRefreshing<T>(_ body: () async throws -> T) async throws -> T {
    try await body()
  }
}
