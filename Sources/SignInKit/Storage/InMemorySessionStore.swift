import Foundation
import SignInConcurrency

/// A ``SessionStore`` that forgets everything when the process ends: for tests, previews and
/// sessions that must not outlive the app.
///
/// - Concurrency: `Sendable`, lock-guarded (`Locked`), any isolation.
public final class InMemorySessionStore: SessionStore {
  private let session: Locked<StoredSession?>
  private let records = Locked<[String: Data]>([:])
  /// Each tenant's store, made on first use.
  private let tenants = Locked<[String: InMemorySessionStore]>([:])

  public init(_ session: StoredSession? = nil) {
    self.session = Locked(session)
  }

  public func loadRecord(named name: String) throws -> Data? { records.withLock { $0[name] } }
  public func saveRecord(_ data: Data?, named name: String) throws { records.withLock { $0[name] = data } }

  public func scoped(toTenant tenantID: String) -> any SessionStore {
    tenants.withLock { tenants in
      if let known = tenants[tenantID] { return known }
      let made = InMemorySessionStore()
      tenants[tenantID] = made
      return made
    }
  }

  public func load() throws -> StoredSession? { session.withLock { $0 } }
  public func save(_ session: StoredSession) throws { self.session.withLock { $0 = session } }
  public func clear() throws { session.withLock { $0 = nil } }
  public func containsSession() -> Bool { session.withLock { $0 != nil } }
  public func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    self.session.withLock { stored in
      guard let current = stored, current.user.uid == owner.user.uid, current.generation <= owner.generation else {
        return false
      }
      stored = session
      return true
    }
  }
}
