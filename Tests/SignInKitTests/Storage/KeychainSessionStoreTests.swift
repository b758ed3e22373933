import Foundation
import SignInConcurrency
import SignInKitTesting
import Testing

@testable import SignInKit

/// An in-memory keychain of generic-password items that can be locked, as a device before its
/// first unlock is.
final class FakeKeychain: KeychainItems {
  private struct State {
    var items: [KeychainItem: Data] = [:]
    var isLocked = false
    /// Calls answered before the keychain locks itself, as a device locking mid-operation does.
    var callsBeforeLocking: Int?

    /// Counts a call; whether the keychain is locked for it.
    mutating func locksNow() -> Bool {
      if let left = callsBeforeLocking {
        if left == 0 {
          isLocked = true
          callsBeforeLocking = nil
        } else {
          callsBeforeLocking = left - 1
        }
      }
      return isLocked
    }
  }

  private let state = Locked(State())

  var isLocked: Bool {
    get { state.withLock { $0.isLocked } }
    set { state.withLock { $0.isLocked = newValue } }
  }

  var items: [KeychainItem: Data] { state.withLock { $0.items } }

  func put(_ data: Data, at item: KeychainItem) { state.withLock { $0.items[item] = data } }

  /// Locks the keychain after `calls` more calls.
  func lock(afterCalls calls: Int) { state.withLock { $0.callsBeforeLocking = calls } }

  func copyData(of item: KeychainItem) -> (KeychainStatus, Data?) {
    state.withLock { state in
      if state.locksNow() { return (.interactionNotAllowed, nil) }
      guard let data = state.items[item] else { return (.itemNotFound, nil) }
      return (.success, data)
    }
  }

  func add(_ data: Data, as item: KeychainItem) -> KeychainStatus {
    state.withLock { state in
      if state.locksNow() { return .interactionNotAllowed }
      guard state.items[item] == nil else { return .duplicateItem }
      state.items[item] = data
      return .success
    }
  }

  func update(_ item: KeychainItem, to data: Data) -> KeychainStatus {
    state.withLock { state in
      if state.locksNow() { return .interactionNotAllowed }
      guard state.items[item] != nil else { return .itemNotFound }
      state.items[item] = data
      return .success
    }
  }

  func delete(_ item: KeychainItem) -> KeychainStatus {
    state.withLock { state in
      if state.locksNow() { return .interactionNotAllowed }
      return state.items.removeValue(forKey: item) == nil ? .itemNotFound : .success
    }
  }
}

@Suite struct KeychainSessionStoreTests {
  static func session(_ uid: String = "uid-1") -> StoredSession {
    StoredSession(
      user: User(uid: uid, email: "\(uid)@example.com"), idToken: "id.\(uid)",
      refreshToken: "refresh.\(uid)", expiresAt: Date(timeIntervalSince1970: 1_800_003_600),
      signInProvider: .password)
  }

  @Test func savesLoadsAndClearsOneItemPerNamespace() throws {
    let keychain = FakeKeychain()
    let work = KeychainSessionStore(namespace: "work", keychain: keychain)
    let home = KeychainSessionStore(namespace: "home", keychain: keychain)
    #expect(try work.load() == nil && !work.containsSession())
    try work.save(Self.session("a"))
    try work.save(Self.session("b"))
    try home.save(Self.session("c"))
    #expect(try work.load() == Self.session("b"))
    #expect(try home.load() == Self.session("c"))
    #expect(keychain.items.keys.map(\.account).sorted() == ["home", "work"])
    #expect(keychain.items.keys.allSatisfy { $0.service == "dev.signinkit.session" })
    try work.clear()
    try work.clear()
    #expect(try work.load() == nil)
    #expect(home.containsSession())
  }

  @Test func aLockedKeychainIsARetryableStorageErrorAndTheSessionIsKept() throws {
    let keychain = FakeKeychain()
    let store = KeychainSessionStore(keychain: keychain)
    try store.save(Self.session())
    keychain.isLocked = true
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("locked") == true)
    #expect(error?.message.contains("try again") == true)
    #expect(store.containsSession())
    #expect(throws: AuthError.self) { try store.clear() }
    keychain.isLocked = false
    #expect(try store.load() == Self.session())
  }

  @Test func anUndecodableItemIsKeptAsideAndReported() throws {
    let keychain = FakeKeychain()
    let store = KeychainSessionStore(
      keychain: keychain, now: { Date(timeIntervalSince1970: 1_800_000_000) })
    keychain.put(Data("not json".utf8), at: store.item)
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.code == .storage)
    let aside = KeychainItem(service: store.item.service, account: "default.unreadable-20270115T080000Z")
    #expect(error?.message.contains(aside.account) == true)
    #expect(keychain.items[aside] == Data("not json".utf8))
    #expect(keychain.items[store.item] == nil)
  }

  @Test func aSessionFromANewerBuildIsLeftInPlace() throws {
    let keychain = FakeKeychain()
    let store = KeychainSessionStore(keychain: keychain)
    let newer = Data(#"{"formatVersion": 9, "somethingNew": true}"#.utf8)
    keychain.put(newer, at: store.item)
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.message.contains("newer version") == true)
    #expect(keychain.items[store.item] == newer)
    #expect(keychain.items.count == 1)
  }

  @Test func aRefreshIsWrittenOnlyOverTheSameUsersSession() throws {
    let store = KeychainSessionStore(keychain: FakeKeychain())
    try store.save(Self.session("a"))
    #expect(try store.save(Self.session("a"), ifStillOwnedBy: Self.session("a")))
    #expect(try !store.save(Self.session("b"), ifStillOwnedBy: Self.session("b")))
    try store.clear()
    #expect(try !store.save(Self.session("a"), ifStillOwnedBy: Self.session("a")))
    #expect(try store.load() == nil)
  }

  @Test func securityStatusCodesAreRead() {
    #expect(KeychainStatus(0) == .success)
    #expect(KeychainStatus(-25300) == .itemNotFound)
    #expect(KeychainStatus(-25299) == .duplicateItem)
    #expect(KeychainStatus(-25308) == .interactionNotAllowed)
    #expect(KeychainStatus(-34018) == .other(-34018))
  }

  /// At launch behind a locked keychain the restore reports the lock; the session survives it,
  /// and the next restore, after unlock, signs the user in.
  @Test func aRestoreBehindALockedKeychainSignsInOnceItIsUnlocked() async throws {
    let keychain = FakeKeychain()
    let harness = Harness(store: KeychainSessionStore(keychain: keychain))
    let user = try await harness.signUp().user
    await harness.auth.shutdown()
    keychain.isLocked = true
    let clock = harness.clock
    let relaunched = Auth(
      backend: harness.backend, store: KeychainSessionStore(keychain: keychain), clock: clock,
      now: { clock.date })
    await #expect(throws: AuthError.self) { try await relaunched.restorePreviousSignIn() }
    keychain.isLocked = false
    #expect(keychain.items.count == 1)
    #expect(try await relaunched.restorePreviousSignIn() == user)
    #expect(relaunched.currentUser == user)
  }
}
