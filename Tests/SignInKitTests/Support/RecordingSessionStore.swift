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
}
