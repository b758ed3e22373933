import Foundation
import SignInTestSupport
import Testing

@testable import SignInKit

@Suite struct FileSessionStoreTests {
  static let session = StoredSession(
    user: User(
      uid: "u1", email: "ada@example.com",
      providers: [
        ProviderInfo(providerID: .password, rawID: "ada@example.com")
      ]),
    idToken: "header.payload.signature", refreshToken: "refresh+/=",
    expiresAt:
      Date(timeIntervalSince1970: 1_800_003_600.25), signInProvider: .password)

  @Test func savedSessionLoadsBackUnchanged() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    #expect(try store.load() == nil)
    #expect(!store.containsSession())
    try store.save(Self.session)
    #expect(store.containsSession())
    #expect(try store.load() == Self.session)
    // Survives a new store value over the same directory (a relaunch).
    #expect(try FileSessionStore(directory: directory.url).load() == Self.session)
  }

  /// A follower reads the store once the watch is in place, so a session saved before it
  /// watched is not missed; then every save is another value.
  @Test func changesStartWithOneValueOnceWatchingThenOneForASave() async throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    try store.save(Self.session)
    var changes = try store.changes().makeAsyncIterator()
    #expect(await changes.next() != nil)
    var later = Self.session
    later.generation = 1
    try store.save(later)
    #expect(await changes.next() != nil)
    #expect(try store.load()?.generation == 1)
  }

  @Test func fileIsOwnerOnlyAndFolderIsPrivate() throws {
    let directory = try TemporaryDirectory()
    let nested = directory.url.appendingPathComponent("a/b", isDirectory: true)
    let store = FileSessionStore(directory: nested)
    try store.save(Self.session)
    let file = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
    #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: nested.path)
    #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
  }

  @Test func replacingASessionLeavesNoTemporaryFiles() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    for index in 0..<20 {
      var session = Self.session
      session.idToken = "token-\(index)"
      try store.save(session)
    }
    #expect(try directory.files() == ["session.json"])
    #expect(try store.load()?.idToken == "token-19")
  }

  @Test func corruptSessionFileIsQuarantinedNotDeleted() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(
      directory: directory.url, now: { Date(timeIntervalSince1970: 1_800_000_000) })
    let garbage = Data("{\"user\": tru".utf8)
    try garbage.write(to: store.fileURL)
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.code == .storage)
    let quarantined = "session.json.corrupt-20270115T080000Z"
    #expect(try directory.files() == [quarantined])
    #expect(error?.message.contains(quarantined) == true)
    #expect(try Data(contentsOf: directory.url.appendingPathComponent(quarantined)) == garbage)
    // A second corrupt file the same second keeps the first one too.
    try garbage.write(to: store.fileURL)
    _ = try? store.load()
    #expect(try directory.files() == [quarantined, quarantined + "-2"])
  }

  @Test func aSessionFileThatCannotBeReadNowStaysInPlaceAndSaysToRetry() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    // A folder where the file should be: open works, read fails with EISDIR, as a file fails
    // with EIO, EMFILE or another user's permissions. None of them means "corrupt".
    try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("could not be read") == true)
    #expect(error?.message.contains("try again") == true)
    #expect(try directory.files() == ["session.json"])
  }

  @Test func aSessionFromANewerFormatStaysInPlaceWithAMessageToUpgrade() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    var future = Self.session
    future.formatVersion = 99
    let bytes = try JSONEncoder.sessionEncoder.encode(future)
    try bytes.write(to: store.fileURL)
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("format 99") == true)
    #expect(error?.message.contains("Upgrade") == true)
    #expect(try directory.files() == ["session.json"])
    #expect(try Data(contentsOf: store.fileURL) == bytes)
    // A newer build may also have changed the shape: still left in place.
    try Data(#"{"formatVersion":2,"everything":"else"}"#.utf8).write(to: store.fileURL)
    #expect(throws: AuthError.self) { try store.load() }
    #expect(try directory.files() == ["session.json"])
  }

  @Test func aSessionFromAnOlderUnknownFormatIsQuarantined() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    var past = Self.session
    past.formatVersion = 0
    try JSONEncoder.sessionEncoder.encode(past).write(to: store.fileURL)
    let error = #expect(throws: AuthError.self) { try store.load() }
    #expect(error?.message.contains("format 0") == true)
    #expect(!store.containsSession())
  }

  @Test func containsSessionDoesNotMoveAnUnreadableFile() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    try Data("garbage".utf8).write(to: store.fileURL)
    #expect(store.containsSession())
    #expect(try directory.files() == ["session.json"])
  }

  @Test func clearRemovesTheFileAndToleratesNone() throws {
    let directory = try TemporaryDirectory()
    let store = FileSessionStore(directory: directory.url)
    try store.clear()
    try store.save(Self.session)
    try store.clear()
    #expect(try directory.files().isEmpty)
    #expect(try store.load() == nil)
  }

  @Test func saveThatCannotCreateItsFolderSaysWhatToFix() throws {
    let directory = try TemporaryDirectory()
    let blocker = directory.url.appendingPathComponent("blocker")
    try Data().write(to: blocker)
    let store = FileSessionStore(directory: blocker.appendingPathComponent("inner"))
    let error = #expect(throws: AuthError.self) { try store.save(Self.session) }
    #expect(error?.code == .storage)
    #expect(error?.message.contains(blocker.path) == true)
  }

  @Test func defaultLocationFollowsXDGStateHome() {
    let url = FileSessionStore.default(
      namespace: "app", environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]
    ).fileURL
    #expect(url.path == "/x/state/signinkit/app/session.json")
  }

  @Test func defaultLocationFallsBackToLocalStateUnderHome() {
    let relative = FileSessionStore.default(
      namespace: "app", environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]
    ).fileURL
    #expect(relative.path == "/home/u/.local/state/signinkit/app/session.json")
    let unset = FileSessionStore.default(namespace: "app", environment: ["HOME": "/home/u"]).fileURL
    #expect(unset.path == "/home/u/.local/state/signinkit/app/session.json")
  }

  @Test func namespaceCannotLeaveTheSignInKitFolder() {
    let environment = ["XDG_STATE_HOME": "/s"]
    #expect(
      FileSessionStore.default(namespace: "../../etc", environment: environment).fileURL.path
        == "/s/signinkit/.._.._etc/session.json")
    #expect(
      FileSessionStore.default(namespace: "..", environment: environment).fileURL.path
        == "/s/signinkit/default/session.json")
  }

  @Test func descriptionNeverShowsTokens() {
    let text = "\(Self.session) \(String(reflecting: Self.session))"
    #expect(!text.contains("header.payload.signature"))
    #expect(!text.contains("refresh+/="))
  }
}

@Suite struct InMemorySessionStoreTests {
  @Test func keepsOneSessionUntilCleared() throws {
    let store = InMemorySessionStore()
    #expect(!store.containsSession())
    try store.save(FileSessionStoreTests.session)
    #expect(try store.load() == FileSessionStoreTests.session)
    try store.clear()
    #expect(try store.load() == nil)
  }
}
