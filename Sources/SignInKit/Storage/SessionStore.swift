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
  /// - Returns: `false`, writing nothing, when the stored session is gone or is another user's.
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
}
