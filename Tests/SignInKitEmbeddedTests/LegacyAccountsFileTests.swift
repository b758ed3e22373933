import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInKitTesting
import SignInStorage
import SignInTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// An `accounts.json` from before the SQLite store is imported once and kept aside.
@Suite struct LegacyAccountsFileTests {
  /// A legacy file holding ada (password `secret1`) with a live refresh token and a live
  /// password-reset code, made by an in-memory backend and written in the old format.
  static func legacyFolder() async throws -> (ScratchDirectory, SignInResponse, code: String) {
    let source = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast)
    let ada = try await source.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    _ = try await source.sendOobCode(.passwordReset(email: "ada@example.com"))
    let message = try #require(await source.mailbox(for: "ada@example.com").last)
    var legacy = EmbeddedDatabase()
    let account = try #require(try await source.storedAccount(uid: ada.localID))
    legacy.accounts[ada.localID] = account
    legacy.refreshTokens[StoredSecret.digest(ada.tokens.refreshToken)] = .init(
      uid: ada.localID, issuedAt: Date(), provider: .password)
    legacy.actionCodes[StoredSecret.digest(message.code)] = .init(
      uid: ada.localID, kind: "PASSWORD_RESET", email: "ada@example.com", expiresAt: Date().addingTimeInterval(3600))
    legacy.mailbox = [message]
    let folder = ScratchDirectory()
    try legacy.writeLegacyFile(in: folder.url)
    return (folder, ada, message.code)
  }

  @Test func isImportedOnceAndKeptAside() async throws {
    let (folder, ada, code) = try await Self.legacyFolder()
    let original = try Data(contentsOf: folder.url.appendingPathComponent("accounts.json"))
    let backend = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    #expect(
      backend.storageWarnings.contains { $0.contains("Imported 1 accounts") && $0.contains("accounts.json.imported") })
    #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("accounts.json").path))
    #expect(try Data(contentsOf: folder.url.appendingPathComponent("accounts.json.imported")) == original)
    // Everything came across: the password, the session, the code and its message.
    _ = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    _ = try await backend.refresh(.init(refreshToken: ada.tokens.refreshToken))
    #expect(await backend.mailbox(for: "ada@example.com").map(\.code) == [code])
    _ = try await backend.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "secret2"))
    await backend.close()
    // Opened again, nothing is imported twice.
    let reopened = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    #expect(reopened.storageWarnings.isEmpty)
    _ = try await reopened.signInWithPassword(.init(email: "ada@example.com", password: "secret2"))
  }

  @Test(arguments: [
    ("email link", "password"), ("phone", "phone"), ("anonymous", "anonymous"),
  ])
  func aMigratedSessionWithoutItsProviderRefreshes(_ kind: String, _ provider: String) async throws {
    let source = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast)
    let signedIn: SignInResponse
    switch kind {
    case "email link":
      _ = try await source.sendOobCode(
        .emailSignIn(email: "grace@example.com"),
        settings: ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true))
      let link = try #require(await source.mailbox(for: "grace@example.com").last)
      signedIn = try await source.signInWithEmailLink(
        EmailLinkSignInRequest(email: "grace@example.com", oobCode: link.code))
    case "phone":
      let sent = try await source.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
      let code = try #require(await source.verificationCodes().first { $0.sessionInfo == sent.verificationID }?.code)
      signedIn = try await source.signInWithPhoneNumber(
        PhoneSignInRequest(verificationID: sent.verificationID, code: code))
    default:
      signedIn = try await source.signUp(SignUpRequest())
    }
    var legacy = EmbeddedDatabase()
    let account = try #require(try await source.storedAccount(uid: signedIn.localID))
    legacy.accounts[signedIn.localID] = account
    // Sessions from before the provider was kept have none.
    legacy.refreshTokens[StoredSecret.digest(signedIn.tokens.refreshToken)] = .init(
      uid: signedIn.localID, issuedAt: Date(), provider: nil)
    let folder = ScratchDirectory()
    try legacy.writeLegacyFile(in: folder.url)
    let backend = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    let refreshed = try await backend.refresh(.init(refreshToken: signedIn.tokens.refreshToken))
    let claims = try JSONWebToken(decoding: refreshed.tokens.idToken).claims
    #expect(claims["firebase"]?.object?["sign_in_provider"]?.string == provider)
    await backend.close()
  }

  @Test func aFileFromAnotherFormatIsRefusedAndLeftAsItIs() async throws {
    let folder = ScratchDirectory()
    let url = try EmbeddedDatabase(formatVersion: 2).writeLegacyFile(in: folder.url)
    let before = try Data(contentsOf: url)
    let error = #expect(throws: AuthError.self) {
      try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("accounts.json") == true)
    #expect(error?.message.contains("Nothing was changed") == true)
    #expect(try Data(contentsOf: url) == before)
  }

  @Test func aDamagedDatabaseIsReportedAndNeverReplaced() async throws {
    let folder = ScratchDirectory()
    do {
      let backend = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
      _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
      await backend.close()
    }
    let file = folder.url.appendingPathComponent(EmbeddedStore.fileName)
    // Its header overwritten, as a disk fault or another program might leave it.
    let handle = try FileHandle(forWritingTo: file)
    try handle.write(contentsOf: Data(repeating: 0x5A, count: 100))
    try handle.close()
    let damaged = try Data(contentsOf: file)
    let error = #expect(throws: AuthError.self) {
      try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    }
    #expect(error?.code == .storage)
    #expect(error?.message.contains(file.path) == true)
    #expect(error?.message.contains("left as it is") == true)
    #expect(try Data(contentsOf: file) == damaged)
  }

  @Test func aStoredValidSinceOutOfRangeIsReportedAndRepairedAtImport() async throws {
    // An account as an older version kept it in accounts.json, after accounts:update
    // {"validSince": "1e300"}: made here in memory, then written in that format.
    let source = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast)
    let created = try await source.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    var legacy = EmbeddedDatabase()
    let account = try #require(try await source.storedAccount(uid: created.localID))
    legacy.accounts[created.localID] = account
    legacy.refreshTokens[StoredSecret.digest(created.tokens.refreshToken)] = .init(
      uid: created.localID, issuedAt: Date(), provider: .password)
    let folder = ScratchDirectory()
    try legacy.writeLegacyFile(in: folder.url) { text in
      let stored = try #require(text.range(of: #""validSince":[0-9.e+]+"#, options: .regularExpression))
      text.replaceSubrange(stored, with: #""validSince":1e+300"#)
    }

    let reopened = try EmbeddedBackend(directory: folder.url, configuration: EmbeddedTestBackend.fast)
    let repairs = reopened.storageWarnings.filter { $0.contains("validSince") }
    #expect(repairs.count == 1)
    #expect(repairs.first?.contains(created.localID) == true)
    let repaired = try #require(
      try await reopened.administering({ try $0.adminLookup(uids: [created.localID], emails: []) }).first)
    #expect(repaired.validSince == Date(timeIntervalSince1970: TimeInterval(RequestNumber.epochSeconds.upperBound)))
    // Revoked everything, as the stored value meant: the old session is refused.
    await #expect(throws: AuthError.self) {
      try await reopened.refresh(RefreshTokenRequest(refreshToken: created.tokens.refreshToken))
    }
    await reopened.close()
  }
}
