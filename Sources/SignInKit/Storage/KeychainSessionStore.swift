import Foundation
import SignInConcurrency
import SignInFoundation

/// A ``SessionStore`` in the keychain: one generic-password item per namespace, readable after
/// the device's first unlock (`kSecAttrAccessibleAfterFirstUnlock`), optionally shared with app
/// extensions through an access group. The default store on Apple platforms.
///
/// ```swift
/// let auth = Auth(backend: backend, store: KeychainSessionStore(namespace: "work"))
/// ```
///
/// - A locked keychain (`errSecInteractionNotAllowed`, before first unlock) is a
///   ``AuthError/Code/storage`` error that says to try again: the item is left alone, never
///   read as "signed out" and never deleted.
/// - An item that cannot be decoded is copied to `<account>.unreadable-<timestamp>` and removed,
///   and reported as ``AuthError/Code/storage``; one written in a newer format stays in place,
///   with a message to upgrade. Nothing is ever deleted unread.
/// - Keychain writes are atomic (old or new, never torn).
/// - **Shared with app extensions**: give the keychain access group and the App Group's
///   container as `sharedFolder`. Every write is announced with a Darwin notification named
///   after the item (``changes()``), so each process's ``Auth`` follows the others' sign-ins,
///   sign-outs and refreshes; the ownership check of ``save(_:ifStillOwnedBy:)`` and its write
///   happen under a lock file in the shared folder, and so do refreshes
///   (``whileRefreshing(_:)``), so two processes that need a fresh token make one refresh
///   between them. Without a shared folder the check and the write are two keychain calls that
///   another process can come between.
/// - **Locked at launch**: when the keychain is locked (before the first unlock, or an app
///   launched in the background), ``waitUntilReadable()`` waits for protected data to become
///   available, and ``Auth`` restores then; nothing is signed out or lost meanwhile.
/// - **Moving to an access group**: ``migrate(toAccessGroup:sharedFolder:)`` copies, checks, then deletes the
///   old item; interrupted at any point, it loses nothing and can be run again.
///
/// ```swift
/// let group = "ABCDE12345.com.example.shared"
/// let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")
/// let store = try KeychainSessionStore(namespace: "default").migrate(toAccessGroup: group, sharedFolder: container)
/// let auth = Auth(backend: backend, store: store)
/// ```
///
/// - Concurrency: `Sendable` value; any isolation.
public struct KeychainSessionStore: SessionStore {
  /// The item the session lives in.
  public private(set) var item: KeychainItem
  /// Where the processes sharing the item keep their lock files (an App Group's container), or
  /// `nil` for an item only this app uses.
  public let sharedFolder: URL?
  private let keychain: any KeychainItems
  private let notices: any ChangeNotices
  private let protectedData: any ProtectedDataAvailability
  /// Whether the last read found the keychain locked: ``waitUntilReadable()`` waits only then.
  private let foundLocked = Locked(false)
  private let now: @Sendable () -> Date

  /// A store for `namespace` (one per app or account set).
  ///
  /// - Parameters:
  ///   - namespace: the item's account name (`kSecAttrAccount`), one per app or account set.
  ///   - service: `kSecAttrService`; by default `dev.signinkit.session`.
  ///   - accessGroup: share the session with app extensions in this keychain access group.
  ///   - sharedFolder: the folder the processes sharing the item keep their lock files in.
  ///   - keychain: the keychain; `SystemKeychain` on Apple platforms, as `init(namespace:accessGroup:)` makes it.
  ///   - notices: where writes are announced; Darwin notifications on Apple platforms.
  ///   - protectedData: whether a locked keychain can be waited for; UIKit's on iOS.
  ///   - now: the wall clock used to name unreadable items kept aside.
  package init(
    namespace: String = "default", service: String = "dev.signinkit.session",
    accessGroup: String? = nil, sharedFolder: URL? = nil, keychain: any KeychainItems,
    notices: any ChangeNotices = LocalChangeNotices.shared,
    protectedData: any ProtectedDataAvailability = AlwaysAvailableData(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(
      item: KeychainItem(service: service, account: namespace, accessGroup: accessGroup), sharedFolder: sharedFolder,
      keychain: keychain, notices: notices, protectedData: protectedData, now: now)
  }

  // MARK: - SessionStore

  public func containsSession() -> Bool {
    let (status, _) = keychain.copyData(of: item)
    // A locked keychain may hold one: say so, and let the restore report why it cannot read it.
    return status == .success || status == .interactionNotAllowed
  }

  public func load() throws -> StoredSession? {
    let (status, data) = keychain.copyData(of: item)
    foundLocked.withLock { $0 = status == .interactionNotAllowed }
    switch status {
    case .itemNotFound: return nil
    case .success: break
    default: throw failure(status, doing: "read")
    }
    guard let data else { throw failure(.other(0), doing: "read") }
    switch StoredSession.decode(stored: data) {
    case .session(let session): return session
    case .newerFormat(let version):
      throw AuthError(.storage, StoredSession.newerFormatMessage(version, at: "in the \(item)"))
    case .unusable(let reason): throw quarantine(data, reason: reason)
    }
  }

  public func save(_ session: StoredSession) throws {
    try write(try session.storedBytes(), to: item)
    announceChange()
  }

  /// Load, compare and save under the shared folder's write lock, which every process sharing
  /// the item takes here. Without a shared folder, in turn: another process can come between.
  public func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    try underWriteLock {
      guard let stored = try load(), stored.user.uid == owner.user.uid, stored.generation <= owner.generation else {
        return false
      }
      try save(session)
      return true
    }
  }

  public func clear() throws {
    let status = keychain.delete(item)
    guard status == .success || status == .itemNotFound else {
      throw failure(status, doing: "remove")
    }
    announceChange()
  }

  /// The Darwin notification (or this process's notice) posted after each write of the item.
  public func changes() throws -> AsyncStream<Void> { notices.notices(named: noticeName) }

  /// With a shared folder, holds `ACCOUNT.refresh.lock` in it while `body` runs; without one,
  /// runs `body` at once.
  public nonisolated(nonsending) func whileRefreshing<T>(_ body: () async throws -> T) async throws -> T {
    guard let lockURL = lockURL("refresh") else { return try await body() }
    do {
      return try await FileLock.whileHolding(lockURL, body)
    } catch let error as FileError {
      throw AuthError(.storage, "\(error.message) Check the shared folder's permissions and try again.")
    }
  }

  /// When the keychain answers that it is locked, waits for protected data to become available.
  public func waitUntilReadable() async -> Bool {
    guard foundLocked.withLock({ $0 }) else { return false }
    await protectedData.untilAvailable()
    return !Task.isCancelled
  }

  /// Moves the session to the keychain access group `accessGroup` (`nil`: the app's own items),
  /// as an app does when it starts sharing its session with extensions, and returns the store
  /// of the new item.
  ///
  /// The old item is copied to the new one, the copy is read back and compared, and only then
  /// is the old item deleted. Interrupted anywhere (the app ended, the keychain locked), both
  /// items are left as they are and running it again finishes the move: a new item already in
  /// place is kept when it is at least as new as the old one (``StoredSession/generation``).
  /// With nothing stored, it only returns the new store.
  ///
  /// - Parameters:
  ///   - accessGroup: the keychain access group the app and its extensions share.
  ///   - sharedFolder: the new store's ``sharedFolder``; by default this one's.
  /// - Throws: ``AuthError/Code/storage`` when the keychain is locked or refuses a call; nothing
  ///   is lost, and the old store still reads the session.
  public func migrate(toAccessGroup accessGroup: String?, sharedFolder: URL? = nil) throws -> KeychainSessionStore {
    var target = item
    target.accessGroup = accessGroup
    let moved = store(of: target, sharedFolder: sharedFolder ?? self.sharedFolder)
    guard moved.item != item else { return moved }
    let (status, data) = keychain.copyData(of: item)
    switch status {
    case .itemNotFound: return moved
    case .success: break
    default: throw failure(status, doing: "read")
    }
    guard let data else { throw failure(.other(0), doing: "read") }
    let (newStatus, newData) = keychain.copyData(of: moved.item)
    switch newStatus {
    case .success:
      // A move interrupted after its copy, or another process that moved first: keep the newer.
      let old = try? JSONDecoder.sessionDecoder.decode(StoredSession.self, from: data)
      let new = newData.flatMap { try? JSONDecoder.sessionDecoder.decode(StoredSession.self, from: $0) }
      if let new, new.generation >= (old?.generation ?? 0) { break }
      try write(data, to: moved.item)
    case .itemNotFound:
      try write(data, to: moved.item)
    default:
      throw failure(newStatus, doing: "save")
    }
    let (checkStatus, copied) = keychain.copyData(of: moved.item)
    guard checkStatus == .success, let copied else { throw failure(checkStatus, doing: "read") }
    if copied != data,
      (try? JSONDecoder.sessionDecoder.decode(StoredSession.self, from: copied)) == nil
    {
      throw AuthError(
        .storage,
        "The session copied to the \(moved.item) did not read back; the \(item) was kept. Try the move again.")
    }
    let deleted = keychain.delete(item)
    guard deleted == .success || deleted == .itemNotFound else { throw failure(deleted, doing: "remove") }
    announceChange()
    moved.announceChange()
    return moved
  }

  /// An item of its own, `<namespace>.<name>`, beside the session's.
  public func loadRecord(named name: String) throws -> Data? {
    var record = item
    record.account = item.account + "." + name
    let (status, data) = keychain.copyData(of: record)
    switch status {
    case .itemNotFound: return nil
    case .success: return data
    default: throw failure(status, doing: "read")
    }
  }

  public func saveRecord(_ data: Data?, named name: String) throws {
    var record = item
    record.account = item.account + "." + name
    guard let data else {
      let status = keychain.delete(record)
      guard status == .success || status == .itemNotFound else { throw failure(status, doing: "remove") }
      return
    }
    try write(data, to: record)
  }

  /// The item `<namespace>@<tenant>`.
  public func scoped(toTenant tenantID: String) -> any SessionStore {
    var scoped = item
    scoped.account = item.account + "@" + tenantID
    return store(of: scoped, sharedFolder: sharedFolder)
  }

  // MARK: - Private

  private init(
    item: KeychainItem, sharedFolder: URL?, keychain: any KeychainItems, notices: any ChangeNotices,
    protectedData: any ProtectedDataAvailability, now: @escaping @Sendable () -> Date
  ) {
    self.item = item
    self.sharedFolder = sharedFolder
    self.keychain = keychain
    self.notices = notices
    self.protectedData = protectedData
    self.now = now
  }

  /// A store of `item` on the same keychain, notices and protected data, with a read state of
  /// its own.
  private func store(of item: KeychainItem, sharedFolder: URL?) -> KeychainSessionStore {
    KeychainSessionStore(
      item: item, sharedFolder: sharedFolder, keychain: keychain, notices: notices, protectedData: protectedData,
      now: now)
  }

  /// The name every writer of the item posts: its service, account and access group.
  var noticeName: String {
    "dev.signinkit.session-changed/\(item.service)/\(item.account)/\(item.accessGroup ?? "-")"
  }

  private func announceChange() { notices.post(noticeName) }

  /// `ACCOUNT.PURPOSE.lock` in the shared folder, or `nil` without one.
  private func lockURL(_ purpose: String) -> URL? {
    guard let sharedFolder else { return nil }
    let name = item.account.map { $0.isLetter || $0.isNumber || "-_.@".contains($0) ? $0 : "_" }
    return sharedFolder.appendingPathComponent("signinkit-\(String(name)).\(purpose).lock", isDirectory: false)
  }

  /// Runs `body` under the shared folder's write lock, or at once without a shared folder.
  private func underWriteLock<T>(_ body: () throws -> T) throws -> T {
    guard let lockURL = lockURL("write") else { return try body() }
    do {
      return try FileLock.holding(lockURL, body)
    } catch let error as FileError {
      throw AuthError(.storage, "\(error.message) Check the shared folder's permissions and try again.")
    }
  }

  private func write(_ data: Data, to item: KeychainItem) throws {
    var status = keychain.update(item, to: data)
    if status == .itemNotFound {
      status = keychain.add(data, as: item)
      // Added by someone else between the two calls: replace theirs.
      if status == .duplicateItem { status = keychain.update(item, to: data) }
    }
    guard status == .success else { throw failure(status, doing: "save") }
  }

  /// Copies unreadable data to an item of its own, removes the original, and returns the error
  /// that says where it went.
  private func quarantine(_ data: Data, reason: String) -> AuthError {
    var aside = item
    aside.account = item.account + ".unreadable-" + FileSessionStore.stamp(now())
    do {
      try write(data, to: aside)
    } catch {
      return AuthError(
        .storage,
        "The saved sign-in in the \(item) could not be used: \(reason), and it could not be kept "
          + "aside (\(error)). It was left as it is; sign in again to replace it.")
    }
    _ = keychain.delete(item)
    return AuthError(
      .storage,
      "The saved sign-in in the \(item) could not be used: \(reason). It was kept in the "
        + "\(aside) and nothing was deleted. Sign in again to continue.")
  }

  private func failure(_ status: KeychainStatus, doing what: String) -> AuthError {
    switch status {
    case .interactionNotAllowed:
      AuthError(
        .storage,
        "The keychain is locked, so the saved sign-in could not be \(what == "read" ? "read" : "\(what)d") "
          + "(the device has not been unlocked since it started). Nothing was changed; try again "
          + "after the device is unlocked.")
    case .other(let code):
      AuthError(
        .storage,
        "The keychain could not \(what) the saved sign-in in the \(item) (OSStatus \(code)). "
          + "Nothing was changed; try again, or sign in again.")
    case .success, .itemNotFound, .duplicateItem:
      AuthError(
        .storage, "The keychain could not \(what) the saved sign-in in the \(item) (\(status)).")
    }
  }
}
