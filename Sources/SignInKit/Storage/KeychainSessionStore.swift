import Foundation

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
/// - Keychain writes are atomic (old or new, never torn). The ownership check of
///   ``save(_:ifStillOwnedBy:)`` and the write are two keychain calls: a sign-out in an app
///   extension between them is not seen (the file store locks across processes; the keychain
///   offers no lock).
///
/// - Concurrency: `Sendable` value; any isolation.
public struct KeychainSessionStore: SessionStore {
  /// The item the session lives in.
  public private(set) var item: KeychainItem
  private let keychain: any KeychainItems
  private let now: @Sendable () -> Date

  /// A store for `namespace` (one per app or account set).
  ///
  /// - Parameters:
  ///   - namespace: the item's account name (`kSecAttrAccount`), one per app or account set.
  ///   - service: `kSecAttrService`; by default `dev.signinkit.session`.
  ///   - accessGroup: share the session with app extensions in this keychain access group.
  ///   - keychain: the keychain; `SystemKeychain` on Apple platforms, as `init(namespace:accessGroup:)` makes it.
  ///   - now: the wall clock used to name unreadable items kept aside.
  package init(
    namespace: String = "default", service: String = "dev.signinkit.session",
    accessGroup: String? = nil, keychain: any KeychainItems,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    item = KeychainItem(service: service, account: namespace, accessGroup: accessGroup)
    self.keychain = keychain
    self.now = now
  }

  // MARK: - SessionStore

  public func containsSession() -> Bool {
    let (status, _) = keychain.copyData(of: item)
    // A locked keychain may hold one: say so, and let the restore report why it cannot read it.
    return status == .success || status == .interactionNotAllowed
  }

  public func load() throws -> StoredSession? {
    let (status, data) = keychain.copyData(of: item)
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
  }

  /// Load, compare and save in turn. The keychain has no lock that other processes take, so
  /// an app and its extensions that refresh at once can still cross here.
  public func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    guard let stored = try load(), stored.user.uid == owner.user.uid, stored.generation <= owner.generation else {
      return false
    }
    try save(session)
    return true
  }

  public func clear() throws {
    let status = keychain.delete(item)
    guard status == .success || status == .itemNotFound else {
      throw failure(status, doing: "remove")
    }
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
    var scoped = self
    scoped.item.account = item.account + "@" + tenantID
    return scoped
  }

  // MARK: - Private

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
