import Foundation
import SignInConcurrency
import SignInEmbeddedTestSupport
import SignInKitTesting
import SignInStorage
import SignInTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Review N1 and N9: a tenant's accounts live in its project's database file, each row naming
/// its tenant, so a tenant opens no file of its own; tenant folders and databases of earlier
/// versions move in once.
@Suite struct TenantStorageTests {
  @Test func tenantsLiveInTheProjectsFileAndKeepTheirAccountsApart() async throws {
    let folder = ScratchDirectory()
    let project = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    let first = try project.tenant("first")
    let second = try project.tenant("second")
    var sessions: [SignInResponse] = []
    for (backend, password) in [(project, "project-pass"), (first, "first-pass"), (second, "second-pass")] {
      sessions.append(try await backend.signUp(SignUpRequest(email: "ada@example.com", password: password)))
    }
    // One address, three accounts: each signs in only with its own password.
    #expect(Set(sessions.map(\.localID)).count == 3)
    _ = try await first.signInWithPassword(.init(email: "ada@example.com", password: "first-pass"))
    await #expect(throws: AuthError.self) {
      try await first.signInWithPassword(.init(email: "ada@example.com", password: "second-pass"))
    }
    // A tenant's refresh token is not the project's, nor another tenant's.
    await #expect(throws: AuthError.self) {
      try await project.refresh(.init(refreshToken: sessions[1].tokens.refreshToken))
    }
    await #expect(throws: AuthError.self) {
      try await second.refresh(.init(refreshToken: sessions[1].tokens.refreshToken))
    }
    _ = try await first.refresh(.init(refreshToken: sessions[1].tokens.refreshToken))

    // The folder holds the project's files and nothing per tenant.
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    #expect(names.isSubset(of: ["accounts.sqlite", "accounts.sqlite-wal", "accounts.sqlite-shm", "signing-key.pem"]))

    // Each keeps settings of its own.
    #expect(
      try await first.settings({ try $0.add("oidc", key: "oidc.okta", value: Data("1".utf8), limit: 10) }) == .added)
    #expect(
      try await project.settings({ try $0.add("oidc", key: "oidc.okta", value: Data("2".utf8), limit: 10) }) == .added)
    #expect(try await second.settings { try $0.value("oidc", key: "oidc.okta") } == nil)

    // Deleting a tenant's data leaves the others' accounts and settings as they were.
    try await first.deleteTenantData()
    #expect(await first.uid(forEmail: "ada@example.com") == nil)
    #expect(try await first.settings { try $0.value("oidc", key: "oidc.okta") } == nil)
    #expect(try await project.settings { try $0.value("oidc", key: "oidc.okta") } == Data("2".utf8))
    #expect(await project.uid(forEmail: "ada@example.com") == sessions[0].localID)
    #expect(await second.uid(forEmail: "ada@example.com") == sessions[2].localID)
    await first.close()
    // A tenant closing leaves its project open.
    _ = try await project.signInWithPassword(.init(email: "ada@example.com", password: "project-pass"))
    await project.close()

    let reopened = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    _ = try await reopened.tenant("second").signInWithPassword(.init(email: "ada@example.com", password: "second-pass"))
    #expect(try await reopened.tenant("first").uid(forEmail: "ada@example.com") == nil)
  }

  @Test func aDatabaseOfThePreviousSchemaKeepsItsAccountsAndSettings() async throws {
    let source = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast)
    let ada = try await source.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let account = try #require(try await source.storedAccount(uid: ada.localID))
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.sortedKeys]
    let record = String(decoding: try encoder.encode(account), as: UTF8.self)

    // A file as the version before tenants moved in left it: schema 6.
    let folder = ScratchDirectory()
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let previous = SQLiteSchema(migrations: Array(EmbeddedStore.schema.migrations.prefix(6)))
    let database = try SQLiteDatabase(.file(folder.url.appendingPathComponent(EmbeddedStore.fileName)))
    try previous.migrate(database)
    try database.run(
      "INSERT INTO accounts (uid, email, record) VALUES (?, ?, ?)",
      [.text(ada.localID), .text("ada@example.com"), .text(record)])
    try database.run("INSERT INTO settings (kind, key, value) VALUES ('tenant', 'acme', '{}')")
    database.close()

    let backend = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    #expect(
      try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1")).localID == ada.localID)
    #expect(try await backend.settings { try $0.value("tenant", key: "acme") } == Data("{}".utf8))
    #expect(try await backend.tenant("acme").uid(forEmail: "ada@example.com") == nil)
  }
}

/// Review N13 at the backend: a damaged write-ahead log is named in the storage warnings
/// `signin` prints at start, with the copy kept of it.
@Suite struct DamagedLogTests {
  /// A folder as a crash leaves it, its log damaged in the page of its last frame: Grace's
  /// sign-up, the last transaction, is unreadable; Ada's is sound.
  static func crashedFolder() async throws -> ScratchDirectory {
    let folder = ScratchDirectory()
    let copy = ScratchDirectory()
    try FileManager.default.createDirectory(at: copy.url, withIntermediateDirectories: true)
    let backend = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    _ = try await backend.signUp(SignUpRequest(email: "grace@example.com", password: "secret2"))
    // The database and its log, copied while open.
    for name in ["accounts.sqlite", "accounts.sqlite-wal", "signing-key.pem"] {
      try FileManager.default.copyItem(
        at: folder.url.appendingPathComponent(name), to: copy.url.appendingPathComponent(name))
    }
    await backend.close()
    let log = copy.url.appendingPathComponent("accounts.sqlite-wal")
    var bytes = [UInt8](try Data(contentsOf: log))
    let pageSize = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
    bytes[bytes.count - pageSize + 100] ^= 0xFF
    try Data(bytes).write(to: log)
    return copy
  }

  @Test func aDamagedLogIsReportedWhenTheFolderOpens() async throws {
    let copy = try await Self.crashedFolder()
    let log = copy.url.appendingPathComponent("accounts.sqlite-wal")
    let reopened = try EmbeddedBackend(directory: copy.url, configuration: EmbeddedTestBackend.fast)
    #expect(reopened.storageWarnings.count == 1, "\(reopened.storageWarnings)")
    #expect(reopened.storageWarnings.first?.contains("1 transaction committed after it, so it is not") == true)
    #expect(FileManager.default.fileExists(atPath: log.path + ".damaged"))
    #expect(await reopened.uid(forEmail: "ada@example.com") != nil)
    #expect(await reopened.uid(forEmail: "grace@example.com") == nil)
  }

  /// `signin` opens its accounts at the first command that needs them: the same warning then
  /// reaches it, once, and not before.
  @Test func aBackendThatOpensOnFirstUseReportsTheDamagedLogAtItsFirstCall() async throws {
    let copy = try await Self.crashedFolder()
    let log = copy.url.appendingPathComponent("accounts.sqlite-wal")
    let reported = Locked<[[String]]>([])
    let reopened = try EmbeddedBackend(
      directory: copy.url, configuration: EmbeddedTestBackend.fast,
      opensDatabaseOnFirstUse: { warnings in reported.withLock { $0.append(warnings) } })
    #expect(reported.withLock { $0 }.isEmpty)
    #expect(reopened.storageWarnings.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: log.path + ".damaged"))
    #expect(await reopened.uid(forEmail: "ada@example.com") != nil)
    #expect(await reopened.uid(forEmail: "grace@example.com") == nil)
    let warnings = reported.withLock { $0 }
    #expect(warnings.count == 1 && warnings.first?.count == 1, "\(warnings)")
    #expect(warnings.first?.first?.contains("1 transaction committed after it, so it is not") == true)
    #expect(reopened.storageWarnings == warnings.first)
    #expect(FileManager.default.fileExists(atPath: log.path + ".damaged"))
  }
}
