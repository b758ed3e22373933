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
}
