import Foundation
import SignInKitTesting
import Testing

@testable import SignInKit

/// Two `Auth`s on one session folder stand for two processes (an app and its extension, two
/// `signin`s): each has its own `FileSessionStore`, open file and lock, as a process would, and
/// follows the other through the folder's watch. (`SigninWatchTests` runs two real processes.)
@Suite(.timeLimit(.minutes(2)))
struct AuthOtherProcessesTests {
  static let manual = AuthConfiguration(refreshesAutomatically: false)

  static func folder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("other-processes-\(UUID().uuidString)")
  }

  /// Waits for `auth` to show a state that satisfies `condition`, and returns it.
  static func state(of auth: Auth, where condition: @escaping (AuthState) -> Bool) async -> AuthState? {
    for await state in auth.states where condition(state) { return state }
    return nil
  }

  static func isSignedIn(_ email: String) -> (AuthState) -> Bool {
    { if case .signedIn(let user, _) = $0 { user.email == email } else { false } }
  }

  @Test func followsASignInAnAccountSwitchAndASignOutMadeElsewhere() async throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = ScriptedBackend()
    let a = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    let b = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    #expect(try await b.restorePreviousSignIn() == nil)
    let subscribed = b.events
    let events = Task { await subscribed.prefix(3).reduce(into: []) { $0.append($1) } }

    _ = try await a.signUp(email: "ada@example.com", password: "correct horse")
    #expect(await Self.state(of: b, where: Self.isSignedIn("ada@example.com")) != nil)
    _ = try await a.signUp(email: "grace@example.com", password: "correct horse")
    #expect(await Self.state(of: b, where: Self.isSignedIn("grace@example.com")) != nil)
    try await a.signOut()
    #expect(await Self.state(of: b, where: { $0 == .signedOut(.signedOutElsewhere) }) != nil)

    let seen = await events.value
    #expect(seen.count == 3)
    if case .signedIn(let user, false) = seen[0] {
      #expect(user.email == "ada@example.com")
    } else {
      Issue.record("\(seen[0])")
    }
    if case .signedIn(let user, false) = seen[1] {
      #expect(user.email == "grace@example.com")
    } else {
      Issue.record("\(seen[1])")
    }
    #expect(seen[2] == .signedOut(.signedOutElsewhere))
    // Following signs nothing out at the backend: A's sign-out already did.
    #expect(backend.count(of: .revokeRefreshToken) == 1)
    for auth in [a, b] { await auth.shutdown() }
  }

  @Test func takesTheTokensOfARefreshMadeElsewhereWithoutRefreshingItself() async throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = ScriptedBackend()
    let a = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    _ = try await a.signUp(email: "ada@example.com", password: "correct horse")
    let b = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    _ = try await b.restorePreviousSignIn()
    let before = try #require(try FileSessionStore(directory: folder).load())

    _ = try await a.idToken(forceRefresh: true)
    let stored = try #require(try FileSessionStore(directory: folder).load())
    #expect(stored.generation == before.generation + 1)
    #expect(await Self.generation(of: b, reaching: stored.generation))
    #expect(try await b.idToken() == stored.idToken)
    #expect(backend.count(of: .refresh) == 1)
    for auth in [a, b] { await auth.shutdown() }
  }

  /// Waits until `auth` holds a session of at least `generation`.
  static func generation(of auth: Auth, reaching generation: Int) async -> Bool {
    for await _ in auth.states where await auth.session.map({ $0.generation >= generation }) == true { return true }
    return false
  }

  @Test func twoProcessesForcingARefreshAtOnceMakeOneBetweenThem() async throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let backendClock = ManualClock()
    let backend = ScriptedBackend(clock: backendClock)
    let a = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    _ = try await a.signUp(email: "ada@example.com", password: "correct horse")
    let b = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    _ = try await b.restorePreviousSignIn()

    // A's refresh holds the lock, parked at the backend; B's starts meanwhile and waits its turn.
    backend.script(.refresh, .delay(.seconds(1)))
    let first = Task { try await a.idToken(forceRefresh: true) }
    await backend.calls(atLeast: 1, of: .refresh)
    await backendClock.sleepers(atLeast: 1)
    let second = Task { try await b.idToken(forceRefresh: true) }
    _ = await Self.state(of: b, where: { if case .signedIn(_, .refreshing) = $0 { true } else { false } })
    backendClock.advance(by: .seconds(1))

    let (tokenA, tokenB) = (try await first.value, try await second.value)
    #expect(tokenA == tokenB)
    #expect(backend.count(of: .refresh) == 1)
    #expect(try FileSessionStore(directory: folder).load()?.idToken == tokenA)
    let user = b.currentUser
    #expect(user?.email == "ada@example.com")
    for auth in [a, b] { await auth.shutdown() }
  }

  @Test func aWriterHoldingAnOlderSessionNeverReplacesTheNewerOne() async throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = ScriptedBackend()
    // A cannot follow (its store does not watch), so it still holds generation 1 when it writes.
    let a = Auth(
      backend: backend, store: UnwatchedStore(FileSessionStore(directory: folder)), configuration: Self.manual)
    _ = try await a.signUp(email: "ada@example.com", password: "correct horse")
    let b = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: Self.manual)
    _ = try await b.restorePreviousSignIn()
    let refreshedByB = try await b.idToken(forceRefresh: true)
    let newer = try #require(try FileSessionStore(directory: folder).load())

    // A's profile change lands on B's newer session: B's tokens stay, A's name is added.
    _ = try await a.updateProfile(displayName: "Ada", photoURL: nil)
    let stored = try #require(try FileSessionStore(directory: folder).load())
    #expect(stored.generation == newer.generation + 1)
    #expect(stored.idToken == refreshedByB)
    #expect(stored.refreshToken == newer.refreshToken)
    #expect(stored.user.displayName == "Ada")
    for auth in [a, b] { await auth.shutdown() }
  }

  @Test func aSessionStoredBeforeGenerationsWereKeptReadsAsGenerationZero() throws {
    let json = Data(
      #"""
      {"expiresAt":1900000000,"formatVersion":1,"idToken":"h.p.s","refreshToken":"r","signInProvider":"password",
       "user":{"uid":"u1","emailVerified":false,"isAnonymous":false,"providers":[]}}
      """#.utf8)
    let session = try JSONDecoder.sessionDecoder.decode(StoredSession.self, from: json)
    #expect(session.generation == 0)
  }
}

/// A store that leaves out `changes()`: `Auth` cannot follow it, so it learns of other processes'
/// writes only when it next writes.
final class UnwatchedStore: SessionStore {
  let inner: any SessionStore
  init(_ inner: any SessionStore) { self.inner = inner }
  func load() throws -> StoredSession? { try inner.load() }
  func save(_ session: StoredSession) throws { try inner.save(session) }
  func clear() throws { try inner.clear() }
  func containsSession() -> Bool { inner.containsSession() }
  func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    try inner.save(session, ifStillOwnedBy: owner)
  }
  func loadRecord(named name: String) throws -> Data? { try inner.loadRecord(named: name) }
  func saveRecord(_ data: Data?, named name: String) throws { try inner.saveRecord(data, named: name) }
  func scoped(toTenant tenantID: String) -> any SessionStore { UnwatchedStore(inner.scoped(toTenant: tenantID)) }
}
