import Foundation
import SignInConcurrency
import SignInKit
import SignInKitEmbedded
import SignInKitTesting
import Testing

/// `Auth` over a session store that fails the way disks do: no space (ENOSPC), no permission
/// (EACCES), and a torn write (a crash mid-write by a writer that was not atomic). Random
/// operations under random faults, from a seed; after every step the state is consistent, and
/// after a "relaunch" the restored session is the last one committed or none — never another
/// user's, and no account is lost.
@Suite(.timeLimit(.minutes(2)))
struct AuthStoreFaultTests {
  enum Fault: CaseIterable {
    case none, noSpace, accessDenied, tornWrite
  }

  /// A `FileSessionStore` whose next writes fail as scripted.
  final class FaultInjectingStore: SessionStore {
    let inner: FileSessionStore
    let next = Locked(Fault.none)

    init(directory: URL) { inner = FileSessionStore(directory: directory) }

    func load() throws -> StoredSession? { try inner.load() }
    func containsSession() -> Bool { inner.containsSession() }
    func save(_ session: StoredSession) throws {
      try inject()
      try inner.save(session)
    }
    func clear() throws {
      try inject()
      try inner.clear()
    }
    /// Through this store's own save, so the scripted fault lands on it too.
    func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
      try saveAfterComparing(session, ifStillOwnedBy: owner)
    }
    func loadRecord(named name: String) throws -> Data? { try inner.loadRecord(named: name) }
    func saveRecord(_ data: Data?, named name: String) throws { try inner.saveRecord(data, named: name) }
    func scoped(toTenant tenantID: String) -> any SessionStore { self }

    private func inject() throws {
      switch next.withLock({ fault in
        defer { fault = .none }
        return fault
      }) {
      case .none: return
      case .noSpace:
        throw AuthError(.storage, "Cannot write the session: No space left on device (ENOSPC). Free some space.")
      case .accessDenied:
        throw AuthError(.storage, "Cannot write the session: Permission denied (EACCES). Check the folder's owner.")
      case .tornWrite:
        // What a non-atomic writer leaves when it dies halfway: half a file.
        let current = (try? Data(contentsOf: inner.fileURL)) ?? Data(#"{"version":1,"user":{"uid":"#.utf8)
        try? current.prefix(max(1, current.count / 2)).write(to: inner.fileURL)
        throw AuthError(.storage, "The write was interrupted.")
      }
    }
  }

  static func shownState(_ auth: Auth) async -> AuthState {
    let store = auth.stateStore
    return await UIStateActor.run { store.state }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5])
  func randomOperationsUnderRandomFaultsStayConsistent(seed: UInt64) async throws {
    var random = SeededGenerator(seed: seed)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-faults-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try EmbeddedBackend(
      directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
    let emails = ["ada@example.com", "grace@example.com"]
    for email in emails { _ = try await backend.signUp(SignUpRequest(email: email, password: "correct horse")) }

    var store = FaultInjectingStore(directory: folder)
    var auth = Auth(backend: backend, store: store, configuration: AuthConfiguration(refreshesAutomatically: false))
    _ = try await auth.restorePreviousSignIn()  // at launch, as apps do
    for step in 0..<40 {
      store.next.withLock { $0 = Fault.allCases.randomElement(using: &random)! }
      let before = auth.currentUser?.uid
      switch Int.random(in: 0..<5, using: &random) {
      case 0, 1:
        let email = emails.randomElement(using: &random)!
        _ = try? await auth.signIn(email: email, password: "correct horse")
      case 2: _ = try? await auth.idToken(forceRefresh: true)
      case 3: _ = try? await auth.updateProfile(displayName: "step \(step)", photoURL: nil)
      default: try? await auth.signOut()
      }
      store.next.withLock { $0 = .none }
      // Consistent: the shown state names the same user as the session, if any.
      let user = auth.currentUser
      let shownState = await Self.shownState(auth)
      switch shownState {
      case .signedIn(let shown, _): #expect(shown.uid == user?.uid, "seed \(seed) step \(step)")
      case .signedOut: #expect(user == nil, "seed \(seed) step \(step): signed out with a session")
      default: Issue.record("seed \(seed) step \(step): an operation left a transient state: \(shownState)")
      }
      if Int.random(in: 0..<6, using: &random) == 0 {
        // Relaunch: what was committed comes back, or a readable failure; never someone else.
        await auth.shutdown()
        store = FaultInjectingStore(directory: folder)
        auth = Auth(backend: backend, store: store, configuration: AuthConfiguration(refreshesAutomatically: false))
        do {
          let restored = try await auth.restorePreviousSignIn()
          #expect(restored == nil || restored?.uid == user?.uid || restored?.uid == before, "seed \(seed) step \(step)")
        } catch let error as AuthError {
          #expect(error.code == .storage)
          #expect(await Self.shownState(auth) == .signedOut(.storageUnreadable))
          let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("corrupt") }
          #expect(!kept.isEmpty, "an unreadable session is moved aside, not deleted")
        }
      }
    }
    await auth.shutdown()
    // Nothing lost: every account still signs in.
    for email in emails {
      let response = try await backend.signInWithPassword(
        PasswordSignInRequest(email: email, password: "correct horse"))
      #expect(response.email == email)
    }
  }

  @Test func aFullDiskDuringSignInLeavesTheUserSignedOutAndTheAccountIntact() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-faults-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try EmbeddedBackend(
      directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
    let store = FaultInjectingStore(directory: folder)
    let auth = Auth(backend: backend, store: store)
    _ = try await auth.restorePreviousSignIn()
    store.next.withLock { $0 = .noSpace }
    let error = try await #require(throws: AuthError.self) {
      _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    }
    #expect(error.code == .storage)
    #expect(error.message.contains("No space left"))
    #expect(auth.currentUser == nil)
    #expect(!store.containsSession())
    // The account was created: signing in works once the disk has room.
    #expect(try await auth.signIn(email: "ada@example.com", password: "correct horse").user.email == "ada@example.com")
    await auth.shutdown()
  }

  /// A store that cannot tell of other processes' changes (it leaves out `changes()`): `Auth`
  /// learns of them only when it next writes.
  static func unwatched(_ folder: URL) -> any SessionStore { FaultInjectingStore(directory: folder) }

  /// With a backend that cannot revoke refresh tokens (Firebase's REST API), A's refresh still
  /// works at the server: only the store can tell A that B signed out. With one that revokes
  /// (the embedded backend), the server refuses A's refresh too. A's store here cannot follow
  /// B's changes (`AuthFollowsOtherProcessesTests` has the store that does).
  @Test(arguments: [false, true])
  func aSignOutInAnotherProcessIsNotUndoneByThisOnesRefresh(backendRevokes: Bool) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-shared-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend: any AuthBackend =
      backendRevokes
      ? try EmbeddedBackend(directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
      : ScriptedBackend()
    let manual = AuthConfiguration(refreshesAutomatically: false)
    // Process A signs in; process B, on the same session file, restores it and signs out.
    let a = Auth(backend: backend, store: Self.unwatched(folder), configuration: manual)
    _ = try await a.signUp(email: "ada@example.com", password: "correct horse")
    let b = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: manual)
    #expect(try await b.restorePreviousSignIn()?.email == "ada@example.com")
    try await b.signOut()

    // A's next refresh finds the session gone: it writes nothing back and signs out as well.
    let error = try await #require(throws: AuthError.self) { _ = try await a.idToken(forceRefresh: true) }
    #expect(error.code == (backendRevokes ? .invalidRefreshToken : .noCurrentUser))
    #expect(
      await Self.shownState(a)
        == .signedOut(backendRevokes ? .refreshRejected(.invalidRefreshToken) : .storageCleared))
    #expect(!FileSessionStore(directory: folder).containsSession())
    // The next launch is signed out.
    let next = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: manual)
    #expect(try await next.restorePreviousSignIn() == nil)
    for auth in [a, b, next] { await auth.shutdown() }
  }

  @Test func anotherUsersSessionWrittenByAnotherProcessIsLeftAlone() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-shared-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try EmbeddedBackend(
      directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
    let manual = AuthConfiguration(refreshesAutomatically: false)
    let a = Auth(backend: backend, store: Self.unwatched(folder), configuration: manual)
    _ = try await a.signUp(email: "ada@example.com", password: "correct horse")
    let b = Auth(backend: backend, store: FileSessionStore(directory: folder), configuration: manual)
    _ = try await b.signUp(email: "grace@example.com", password: "correct horse")

    _ = try? await a.updateProfile(displayName: "Ada", photoURL: nil)
    #expect(await Self.shownState(a) == .signedOut(.storageCleared))
    #expect(try FileSessionStore(directory: folder).load()?.user.email == "grace@example.com")
    for auth in [a, b] { await auth.shutdown() }
  }

  @Test func aRefreshThatCannotBeStoredSaysSoInsteadOfOffline() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-faults-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let backend = try EmbeddedBackend(
      directory: nil, configuration: .init(scrypt: ScryptParameters(n: 1 << 10, r: 8, p: 1)))
    let store = FaultInjectingStore(directory: folder)
    let auth = Auth(backend: backend, store: store, configuration: AuthConfiguration(refreshesAutomatically: false))
    let user = try await auth.signUp(email: "ada@example.com", password: "correct horse").user
    let before = try store.load()
    store.next.withLock { $0 = .accessDenied }
    let error = try await #require(throws: AuthError.self) { _ = try await auth.idToken(forceRefresh: true) }
    #expect(error.code == .storage)
    #expect(await Self.shownState(auth) == .signedIn(user, .unsaved))
    let message = await UIStateActor.run { [store = auth.stateStore] in store.errorMessage }
    #expect(message?.contains("Permission denied") == true)
    #expect(try store.load() == before)
    // Once the folder is writable again, the next refresh stores and shows a fresh session.
    _ = try await auth.idToken(forceRefresh: true)
    #expect(await Self.shownState(auth) == .signedIn(user, .fresh))
    await auth.shutdown()
  }
}
