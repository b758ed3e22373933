import Foundation
import SignInConcurrency
import SignInKitTesting
import Testing

@testable import SignInKit

/// Protected data a test makes available when it likes, as a device's first unlock does.
final class FakeProtectedData: ProtectedDataAvailability {
  private let state = Locked<(available: Bool, waiters: [Int: CheckedContinuation<Void, Never>], next: Int)>(
    (false, [:], 0))

  /// Makes protected data available, and wakes every waiter.
  func unlock() {
    let waiters = state.withLock { state in
      state.available = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  var waiters: Int { state.withLock { $0.waiters.count } }

  func untilAvailable() async {
    let id = state.withLock { state in
      defer { state.next += 1 }
      return state.next
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Bool in
          if state.available || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}

/// The keychain store shared by an app and its extensions (issue 50): two stores on one keychain
/// stand for two processes, with their notices carried in process (Darwin notifications on a
/// device) and their locks in one shared folder (the App Group's container).
@Suite(.timeLimit(.minutes(2)))
struct KeychainSessionStoreSharingTests {
  static let manual = AuthConfiguration(refreshesAutomatically: false)
  static let group = "ABCDE12345.com.example.shared"

  static func folder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("app-group-\(UUID().uuidString)")
  }

  // MARK: Moving to an access group

  @Test func migrationMovesTheItemAndTheRestoreReturnsTheSameUser() async throws {
    let keychain = FakeKeychain()
    let backend = ScriptedBackend()
    let before = KeychainSessionStore(keychain: keychain)
    let auth = Auth(backend: backend, store: before, configuration: Self.manual)
    let user = try await auth.signUp(email: "ada@example.com", password: "correct horse").user
    await auth.shutdown()

    let moved = try before.migrate(toAccessGroup: Self.group)
    #expect(Array(keychain.items.keys) == [moved.item])
    #expect(moved.item.accessGroup == Self.group)
    let relaunched = Auth(backend: backend, store: moved, configuration: Self.manual)
    #expect(try await relaunched.restorePreviousSignIn() == user)
    // Moving again, or back, works the same way.
    let back = try moved.migrate(toAccessGroup: nil)
    #expect(Array(keychain.items.keys) == [before.item])
    #expect(try back.load()?.user == user)
    await relaunched.shutdown()
  }

  @Test func aKeychainLockedDuringMigrationLeavesBothItemsAndReportsAStorageError() async throws {
    let keychain = FakeKeychain()
    let before = KeychainSessionStore(keychain: keychain)
    let auth = Auth(backend: ScriptedBackend(), store: before, configuration: Self.manual)
    let user = try await auth.signUp(email: "ada@example.com", password: "correct horse").user
    await auth.shutdown()

    // Read the old item, look for the new one, add it (an update that finds none, then an add),
    // then the device locks before the copy is read back.
    keychain.lock(afterCalls: 4)
    let error = try #require(throws: AuthError.self) { try before.migrate(toAccessGroup: Self.group) }
    #expect(error.code == .storage)
    #expect(error.message.contains("locked"))
    keychain.isLocked = false
    #expect(keychain.items.count == 2)
    #expect(try before.load()?.user == user)

    // Run again once unlocked, it finishes the move.
    let moved = try before.migrate(toAccessGroup: Self.group)
    #expect(Array(keychain.items.keys) == [moved.item])
    #expect(try moved.load()?.user == user)
  }

  @Test func aMoveFindingANewerSessionInTheGroupKeepsIt() throws {
    let keychain = FakeKeychain()
    let before = KeychainSessionStore(keychain: keychain)
    try before.save(KeychainSessionStoreTests.session("old"))
    var newer = KeychainSessionStoreTests.session("new")
    newer.generation = 5
    let inGroup = KeychainSessionStore(accessGroup: Self.group, keychain: keychain)
    try inGroup.save(newer)

    let moved = try before.migrate(toAccessGroup: Self.group)
    #expect(try moved.load() == newer)
    #expect(try before.load() == nil)
  }

  // MARK: Locked at launch

  /// A keychain holding a signed-up user's session, locked since, as at the next launch.
  static func signedUpThenLocked() async throws -> (FakeKeychain, ScriptedBackend, User) {
    let keychain = FakeKeychain()
    let backend = ScriptedBackend()
    let signedUp = Auth(backend: backend, store: KeychainSessionStore(keychain: keychain), configuration: Self.manual)
    let user = try await signedUp.signUp(email: "ada@example.com", password: "correct horse").user
    await signedUp.shutdown()
    keychain.isLocked = true
    return (keychain, backend, user)
  }

  @Test func aKeychainLockedAtLaunchRestoresWhenItUnlocks() async throws {
    let (keychain, backend, user) = try await Self.signedUpThenLocked()
    let protectedData = FakeProtectedData()
    let auth = Auth(
      backend: backend, store: KeychainSessionStore(keychain: keychain, protectedData: protectedData),
      configuration: Self.manual)
    let store = auth.stateStore
    let screens = store.screens.subscribe()
    let restore = Task { try await auth.restorePreviousSignIn() }
    // Still restoring, with the reason for the wait to show.
    for await screen in screens where screen.errorMessage != nil {
      #expect(screen.errorMessage?.contains("keychain is locked") == true)
      #expect(screen.state == .restoring)
      break
    }

    keychain.isLocked = false
    protectedData.unlock()
    #expect(try await restore.value == user)
    #expect(await UIStateActor.run { store.state } == .signedIn(user, .fresh))
    #expect(await UIStateActor.run { store.errorMessage } == nil)
    await auth.shutdown()
  }

  @Test func aKeychainStillLockedAfterTheWaitSettlesUnreadableThenRestoresAtTheUnlock() async throws {
    let (keychain, backend, user) = try await Self.signedUpThenLocked()
    let protectedData = FakeProtectedData()
    let clock = ManualClock()
    var configuration = Self.manual
    configuration.unlockWait = .seconds(30)
    let auth = Auth(
      backend: backend, store: KeychainSessionStore(keychain: keychain, protectedData: protectedData), clock: clock,
      configuration: configuration)
    let restore = Task { try await auth.restorePreviousSignIn() }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(30))
    await #expect(throws: AuthError.self) { try await restore.value }
    let store = auth.stateStore
    #expect(await UIStateActor.run { store.state } == .signedOut(.storageUnreadable))
    #expect(keychain.items.count == 1)

    keychain.isLocked = false
    protectedData.unlock()
    for await state in auth.states where state.isSignedIn {
      #expect(state == .signedIn(user, .fresh))
      break
    }
    await auth.shutdown()
  }

  // MARK: Following and one refresh

  @Test func twoProcessesOnOneKeychainFollowEachOthersSignInAndSignOut() async throws {
    let keychain = FakeKeychain()
    let notices = LocalChangeNotices()
    let backend = ScriptedBackend()
    let app = Auth(
      backend: backend, store: KeychainSessionStore(keychain: keychain, notices: notices), configuration: Self.manual)
    let widget = Auth(
      backend: backend, store: KeychainSessionStore(keychain: keychain, notices: notices), configuration: Self.manual)
    #expect(try await widget.restorePreviousSignIn() == nil)

    let user = try await app.signUp(email: "ada@example.com", password: "correct horse").user
    for await state in widget.states where state.isSignedIn {
      #expect(state.user == user)
      break
    }
    try await app.signOut()
    for await state in widget.states where state == .signedOut(.signedOutElsewhere) { break }
    for auth in [app, widget] { await auth.shutdown() }
  }

  @Test func twoProcessesSharingAFolderRefreshOnceBetweenThem() async throws {
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let keychain = FakeKeychain()
    let notices = LocalChangeNotices()
    let backendClock = ManualClock()
    let backend = ScriptedBackend(clock: backendClock)
    func store() -> KeychainSessionStore {
      KeychainSessionStore(accessGroup: Self.group, sharedFolder: folder, keychain: keychain, notices: notices)
    }
    let app = Auth(backend: backend, store: store(), configuration: Self.manual)
    _ = try await app.signUp(email: "ada@example.com", password: "correct horse")
    let widget = Auth(backend: backend, store: store(), configuration: Self.manual)
    _ = try await widget.restorePreviousSignIn()

    backend.script(.refresh, .delay(.seconds(1)))
    let first = Task { try await app.idToken(forceRefresh: true) }
    await backend.calls(atLeast: 1, of: .refresh)
    await backendClock.sleepers(atLeast: 1)
    let second = Task { try await widget.idToken(forceRefresh: true) }
    for await state in widget.states {
      if case .signedIn(_, .refreshing) = state { break }
    }
    backendClock.advance(by: .seconds(1))
    #expect(try await first.value == second.value)
    #expect(backend.count(of: .refresh) == 1)
    for auth in [app, widget] { await auth.shutdown() }
  }
}
