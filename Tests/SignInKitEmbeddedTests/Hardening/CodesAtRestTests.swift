import Foundation
import SignInEmbeddedTestSupport
import SignInStorage
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// The last finding of the fifth hardening: action and phone codes were in the database in
/// clear. The records that check a code keep digests only; the messages are the outbox's (for
/// development) or the app's delivery handler's, which keeps nothing.
@Suite struct CodesAtRestTests {
  let clock = TestDate()
  let folder = ScratchDirectory()
  static let number = "+15555550100"

  /// What a delivery handler was given, in order; it fails while `failing` is set.
  actor Deliveries {
    var messages: [OutgoingMessage] = []
    var failing = false

    func deliver(_ message: OutgoingMessage) throws {
      messages.append(message)
      if failing { throw CocoaError(.fileWriteOutOfSpace) }
    }

    func fail(_ failing: Bool) { self.failing = failing }

    var emails: [MailboxMessage] {
      messages.compactMap { if case .email(let mail) = $0 { mail } else { nil } }
    }

    var texts: [PhoneVerificationCode] {
      messages.compactMap { if case .text(let text) = $0 { text } else { nil } }
    }
  }

  func backend(handing deliveries: Deliveries? = nil) throws -> EmbeddedBackend {
    var configuration = EmbeddedTestBackend.fast
    if let deliveries {
      configuration.delivery = .handler { try await deliveries.deliver($0) }
    }
    return try EmbeddedTestBackend.backend(configuration, directory: folder.url, clock: clock)
  }

  /// Every byte the data folder holds: the database, its write-ahead log, and anything beside.
  func folderBytes() throws -> Data {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    return try names.reduce(into: Data()) { bytes, name in
      bytes += try Data(contentsOf: folder.url.appendingPathComponent(name))
    }
  }

  func contains(_ bytes: Data, _ text: String) -> Bool {
    bytes.range(of: Data(text.utf8)) != nil
  }

  @Test func actionAndPhoneCodesAreNotInTheDatabaseInClear() async throws {
    let deliveries = Deliveries()
    let backend = try backend(handing: deliveries)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    _ = try await backend.sendOobCode(.passwordReset(email: "ada@example.com"), settings: nil)
    let sent = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    let mail = try #require(await deliveries.emails.first)
    let text = try #require(await deliveries.texts.first)
    #expect(text.sessionInfo == sent.verificationID)

    // While both codes are live, nothing on disk names them: not the action code, not the
    // session a texted code belongs to, not the six digits as the record would quote them.
    let bytes = try folderBytes()
    #expect(!bytes.isEmpty)
    #expect(!contains(bytes, mail.code))
    #expect(!contains(bytes, text.sessionInfo))
    #expect(!contains(bytes, "\"\(text.code)\""))
    // And the outbox is empty: the handler had them.
    #expect(await backend.mailbox().isEmpty)
    #expect(await backend.verificationCodes().isEmpty)

    // The delivered codes work, once.
    _ = try await backend.resetPassword(ResetPasswordRequest(oobCode: mail.code, newPassword: "battery staple"))
    _ = try await backend.signInWithPhoneNumber(
      PhoneSignInRequest(verificationID: text.sessionInfo, code: text.code))
    await #expect(throws: AuthError.self) {
      _ = try await backend.signInWithPhoneNumber(
        PhoneSignInRequest(verificationID: text.sessionInfo, code: text.code))
    }
  }

  @Test func theOutboxKeepsATextOnlyWhileItsCodeCanBeUsed() async throws {
    let backend = try backend()
    let sent = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    let text = try #require(await backend.verificationCodes().first)
    #expect(text.sessionInfo == sent.verificationID && text.code.count == 6)
    await backend.close()

    // The step that checks it holds neither the session nor the code.
    let database = try SQLiteDatabase(.file(folder.url.appendingPathComponent(EmbeddedStore.fileName)))
    let step = try #require(try database.rows("SELECT key, record FROM pending_second_factors").first)
    #expect(step.text(0) != text.sessionInfo)
    #expect(step.text(1)?.contains(text.code) == false, "\(step.text(1) ?? "")")
    database.close()

    let reopened = try self.backend()
    #expect(await reopened.verificationCodes() == [text])
    // Five wrong codes spend the session, and its message goes with it.
    let wrong = text.code == "000000" ? "111111" : "000000"
    for _ in 0..<5 {
      await #expect(throws: AuthError.self) {
        _ = try await reopened.signInWithPhoneNumber(PhoneSignInRequest(verificationID: text.sessionInfo, code: wrong))
      }
    }
    #expect(await reopened.verificationCodes().isEmpty)
    // A used code's message goes too, and an expired one's.
    _ = try await reopened.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550101"))
    let used = try #require(await reopened.verificationCodes().first)
    _ = try await reopened.signInWithPhoneNumber(PhoneSignInRequest(verificationID: used.sessionInfo, code: used.code))
    #expect(await reopened.verificationCodes().isEmpty)
    _ = try await reopened.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550102"))
    clock.advance(EmbeddedBackend.phoneCodeWindow)
    #expect(await reopened.verificationCodes().isEmpty)
  }

  @Test func aFailedDeliveryWithdrawsTheCodeAndSaysWhatFailed() async throws {
    let deliveries = Deliveries()
    let backend = try backend(handing: deliveries)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    await deliveries.fail(true)
    let mailError = await #expect(throws: AuthError.self) {
      _ = try await backend.sendOobCode(.passwordReset(email: "ada@example.com"), settings: nil)
    }
    #expect(mailError?.code == .internal)
    #expect(mailError?.message.contains("email could not be delivered") == true, "\(mailError?.message ?? "")")
    let textError = await #expect(throws: AuthError.self) {
      _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    }
    #expect(textError?.message.contains("text message could not be delivered") == true)

    // The codes the handler saw but could not deliver do not work.
    let mail = try #require(await deliveries.emails.first)
    let text = try #require(await deliveries.texts.first)
    let reset = await #expect(throws: AuthError.self) {
      _ = try await backend.resetPassword(ResetPasswordRequest(oobCode: mail.code, newPassword: "battery staple"))
    }
    #expect(reset?.code == .invalidActionCode)
    await #expect(throws: AuthError.self) {
      _ = try await backend.signInWithPhoneNumber(PhoneSignInRequest(verificationID: text.sessionInfo, code: text.code))
    }
    // Once the handler works again, so does sending.
    await deliveries.fail(false)
    _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    #expect(await deliveries.texts.count == 2)
  }

  @Test func anAdministratorsLinkIsNotHandedToTheDeliveryHandler() async throws {
    let deliveries = Deliveries()
    let backend = try backend(handing: deliveries)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let code = try await backend.adminActionCode(kind: .passwordReset, email: "ada@example.com")
    #expect(await deliveries.messages.isEmpty)
    _ = try await backend.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: "battery staple"))
  }

  /// Migration 9: steps kept under their keys by the version before are dropped, not left in
  /// clear; a new code works at once.
  @Test func stepsPendingAtTheUpgradeAreDroppedNotLeftInClear() async throws {
    let backend = try backend()
    _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    await backend.close()
    let file = folder.url.appendingPathComponent(EmbeddedStore.fileName)
    let database = try SQLiteDatabase(.file(file))
    try database.execute(
      """
      DROP TABLE texts;
      UPDATE pending_second_factors SET key = 'session-in-clear', record = json_set(record, '$.code', '123456');
      PRAGMA user_version = 8;
      """)
    database.close()

    let reopened = try self.backend()
    #expect(await reopened.verificationCodes().isEmpty)
    let check = try SQLiteDatabase(.file(file))
    #expect(try check.rows("SELECT count(*) FROM pending_second_factors").first?.integer(0) == 0)
    check.close()
    _ = try await reopened.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    let text = try #require(await reopened.verificationCodes().first)
    _ = try await reopened.signInWithPhoneNumber(PhoneSignInRequest(verificationID: text.sessionInfo, code: text.code))
  }
}
