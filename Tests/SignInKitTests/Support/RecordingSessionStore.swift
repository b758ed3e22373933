import Foundation
import SignInConcurrency

@testable import SignInKit

/// A ``SessionStore`` that logs every save and clear into a shared log, and can be told to fail.
final class RecordingSessionStore: SessionStore {
  let log = Locked<[String]>([])
  private let inner = InMemorySessionStore()
  let failures = Locked<AuthError?>(nil)

  func load() throws -> StoredSession? { try inner.load() }
  func save(_ session: StoredSession) throws {
    if let error = failures.withLock({ $0 }) { throw error }
    try inner.save(session)
    log.withLock { $0.append("saved \(session.user.uid)") }
  }
  func clear() throws {
    if let error = failures.withLock({ $0 }) { throw error }
    try inner.clear()
    log.withLock { $0.append("cleared") }
  }
  func containsSession() -> Bool { inner.containsSession() }
  func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    try saveAfterComparing(session, ifStillOwnedBy: owner)
  }
  func loadRecord(named name: String) throws -> Data? { try inner.loadRecord(named: name) }
  func saveRecord(_ data: Data?, named name: String) throws { try inner.saveRecord(data, named: name) }
  /// One store for every tenant: the tests that use it have none.
  func scoped(toTenant tenantID: String) -> any SessionStore { self }
}

extension SessionStore {
  /// Load, compare and save in turn, through this store's own `save(_:)` (so a test store's
  /// faults and log see it): right for the tests' single-process stores.
  func saveAfterComparing(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    guard let stored = try load(), stored.user.uid == owner.user.uid, stored.generation <= owner.generation else {
      return false
    }
    try save(session)
    return true
  }
}
