import Foundation
import SignInFoundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``SessionStore`` that keeps the session in one JSON file, readable only by its owner.
///
/// The default location is `$XDG_STATE_HOME/signinkit/<namespace>/session.json`, falling back to
/// `~/.local/state/signinkit/<namespace>/session.json`. The directory is created with mode 0700
/// and the file with mode 0600.
///
/// - Writes go to a temporary file in the same directory, are flushed with `fsync`, then renamed
///   over `session.json` (and the directory is synced), so a crash leaves the old or the new
///   session, never a torn file.
/// - A file that cannot be decoded is renamed to `session.json.corrupt-<timestamp>` and reported
///   as ``AuthError/Code/storage``; it is never deleted and never read as "signed out".
/// - A file that cannot be read now (`EMFILE`, `EIO`, permissions) stays in place and is a
///   ``AuthError/Code/storage`` error: trying again may work. A file written in a newer format
///   stays in place too, with a message to upgrade.
///
/// - Concurrency: `Sendable` value with no mutable state; any isolation.
public struct FileSessionStore: SessionStore {
  /// The file the session lives in.
  public let fileURL: URL
  private let now: @Sendable () -> Date

  /// A store for `session.json` inside `directory`.
  /// - Parameters:
  ///   - directory: the folder, made with mode 0700 when it is missing.
  ///   - now: the wall clock used to name quarantined files.
  public init(directory: URL, now: @escaping @Sendable () -> Date = { Date() }) {
    self.fileURL = directory.appendingPathComponent("session.json", isDirectory: false)
    self.now = now
  }

  /// The store at the default location for `namespace` (one per app or account set).
  ///
  /// Characters other than letters, digits, `-`, `_` and `.` in `namespace` are replaced by `_`,
  /// so a namespace can never leave the `signinkit` folder.
  public static func `default`(
    namespace: String = "default",
    environment: [String: String] = ProcessInfo.processInfo
      .environment
  ) -> FileSessionStore {
    FileSessionStore(directory: defaultDirectory(namespace: namespace, environment: environment))
  }

  static func defaultDirectory(namespace: String, environment: [String: String]) -> URL {
    let base: URL
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = URL(fileURLWithPath: state, isDirectory: true)
    } else {
      let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
      base = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/state", isDirectory: true)
    }
    return base.appendingPathComponent("signinkit", isDirectory: true)
      .appendingPathComponent(sanitized(namespace), isDirectory: true)
  }

  private static func sanitized(_ namespace: String) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    let cleaned = String(namespace.map { allowed.contains($0) ? $0 : "_" })
    return cleaned.isEmpty || cleaned.allSatisfy({ $0 == "." }) ? "default" : cleaned
  }

  private var directoryURL: URL { fileURL.deletingLastPathComponent() }

  // MARK: - SessionStore

  public func containsSession() -> Bool {
    FileManager.default.fileExists(atPath: fileURL.path)
  }

  public func load() throws -> StoredSession? {
    // A file that cannot be read now (too many open files, a disk error, another user's
    // permissions) may read fine later: it stays where it is, and the error says to retry.
    guard
      let bytes = try AuthError.storage({ () throws(FileError) in
        try FileContents.read(fileURL, what: "The saved sign-in")
      })
    else { return nil }
    switch StoredSession.decode(stored: bytes) {
    case .session(let session): return session
    case .newerFormat(let version):
      throw AuthError(.storage, StoredSession.newerFormatMessage(version, at: "at \(fileURL.path)"))
    case .unusable(let reason): throw quarantine(reason: reason)
    }
  }

  public func save(_ session: StoredSession) throws {
    try createDirectory()
    try withFolderLock { try write(session) }
  }

  /// Checks and writes under an exclusive `flock` on the session folder, which ``save(_:)`` and
  /// ``clear()`` take too, so a sign-out in another process cannot slip between the check and
  /// the write.
  public func save(_ session: StoredSession, ifStillOwnedBy owner: StoredSession) throws -> Bool {
    try withFolderLock {
      guard let stored = try load(), stored.user.uid == owner.user.uid, stored.generation <= owner.generation
      else { return false }
      try write(session)
      return true
    }
  }

  /// Watches the folder for `session.json` being replaced or removed, by any process: inotify on
  /// Linux, a dispatch source on Apple platforms. Makes the folder when it is missing.
  public func changes() throws -> AsyncStream<Void> {
    try AuthError.storage { () throws(FileError) in
      try FolderWatch.changes(of: fileURL.lastPathComponent, in: directoryURL)
    }
  }

  /// Holds an exclusive `flock` on `refresh.lock` in the session folder while `body` runs: every
  /// process with a store on this folder takes it for its refreshes, so the second to need one
  /// finds the first's tokens stored when its turn comes.
  public nonisolated(nonsending) func whileRefreshing<T>(_ body: () async throws -> T) async throws -> T {
    try createDirectory()
    let lockURL = directoryURL.appendingPathComponent("refresh.lock", isDirectory: false)
    do {
      return try await FileLock.whileHolding(lockURL, body)
    } catch let error as FileError {
      throw AuthError(.storage, "\(error.message) Fix the folder's permissions and try again.")
    }
  }

  private func write(_ session: StoredSession) throws {
    let data = try session.storedBytes()
    do {
      try AtomicFile.write(data, to: fileURL, mode: 0o600)
    } catch {
      throw AuthError(.storage, "The session could not be saved. \(error.message)")
    }
  }

  public func clear() throws {
    try withFolderLock { try remove() }
  }

  /// `NAME.json` beside `session.json`, mode 0600, written as atomically as the session.
  public func loadRecord(named name: String) throws -> Data? {
    try AuthError.storage { () throws(FileError) in
      try FileContents.read(recordURL(name), what: "The saved \(name)")
    }
  }

  public func saveRecord(_ data: Data?, named name: String) throws {
    guard let data else {
      guard unlink(recordURL(name).path) == 0 || errno == ENOENT else {
        throw AuthError(
          .storage, "\(recordURL(name).path) could not be removed (\(describe(errno))). Fix the folder's permissions.")
      }
      return
    }
    try createDirectory()
    do {
      try AtomicFile.write(data, to: recordURL(name), mode: 0o600)
    } catch {
      throw AuthError(.storage, "The \(name) could not be saved. \(error.message)")
    }
  }

  private func recordURL(_ name: String) -> URL {
    directoryURL.appendingPathComponent(Self.sanitized(name) + ".json", isDirectory: false)
  }

  /// `tenants/TENANT/session.json` inside this store's folder.
  public func scoped(toTenant tenantID: String) -> any SessionStore {
    FileSessionStore(
      directory: directoryURL.appendingPathComponent("tenants", isDirectory: true)
        .appendingPathComponent(Self.sanitized(tenantID), isDirectory: true),
      now: now)
  }

  private func remove() throws {
    guard unlink(fileURL.path) == 0 || errno == ENOENT else {
      throw AuthError(
        .storage,
        "The saved session at \(fileURL.path) could not be removed "
          + "(\(describe(errno))). Fix the folder's permissions and sign out again.")
    }
    AtomicFile.syncFolder(directoryURL)
  }

  /// Runs `body` holding an exclusive `flock` on the session folder, shared by every process
  /// that uses this store. With no folder yet there is nothing stored to race over.
  private func withFolderLock<T>(_ body: () throws -> T) throws -> T {
    let fd = open(directoryURL.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return try body() }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0, errno == EINTR {}
    return try body()
  }

  // MARK: - Quarantine

  /// Moves the unreadable file aside and returns the error that says where it went.
  private func quarantine(reason: String) -> AuthError {
    let stamp = Self.stamp(now())
    var target = fileURL.path + ".corrupt-\(stamp)"
    var suffix = 2
    while FileManager.default.fileExists(atPath: target) {
      target = fileURL.path + ".corrupt-\(stamp)-\(suffix)"
      suffix += 1
    }
    if rename(fileURL.path, target) == 0 {
      AtomicFile.syncFolder(directoryURL)
      return AuthError(
        .storage,
        "The saved sign-in at \(fileURL.path) could not be used: \(reason). It was kept at "
          + "\(target) and nothing was deleted. Sign in again to continue.")
    }
    return AuthError(
      .storage,
      "The saved sign-in at \(fileURL.path) could not be used: \(reason), and it could not be "
        + "moved aside (\(describe(errno))). Fix the file's permissions or move it away, then "
        + "restore again.")
  }

  /// `20261130T024307Z`: sortable, no characters a shell or file system minds.
  static func stamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
    return "\(c.year ?? 0)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
  }

  // MARK: - POSIX

  private func createDirectory() throws {
    try AuthError.storage { () throws(FileError) in try PrivateFolder.create(at: directoryURL) }
  }

  private func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

extension JSONEncoder {
  static var sessionEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }
}

extension JSONDecoder {
  static var sessionDecoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }
}
