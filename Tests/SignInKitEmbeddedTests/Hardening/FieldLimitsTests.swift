import Foundation
import SignInEmbeddedTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Review N6: every field has a length limit on every path that stores it, so the caps that
/// count rows bound bytes too. An unauthenticated `sendOobCode` with a 1 MB address once stored
/// about 5.8 MB.
@Suite struct FieldLimitsTests {
  let backend: EmbeddedBackend
  static let link = ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true)

  init() throws { backend = try EmbeddedTestBackend.backend() }

  static func email(bytes: Int) -> String {
    String(repeating: "a", count: bytes - "@example.com".utf8.count) + "@example.com"
  }

  func refusal(_ body: () async throws -> Void) async -> String? {
    await EmbeddedBackendCustomTokenTests.refusal(body)
  }

  @Test func aMegabyteAddressIsRefusedAndNothingIsStored() async throws {
    let huge = Self.email(bytes: 1 << 20)
    #expect(
      await refusal { _ = try await backend.sendOobCode(.emailSignIn(email: huge), settings: Self.link) }
        == "INVALID_EMAIL")
    #expect(await backend.mailbox(for: huge).isEmpty)
    #expect(try await backend.storedActionCodeCount() == 0)
  }

  @Test func anEmailOf254BytesIsTheLongestThatSignsUp() async throws {
    _ = try await backend.signUp(SignUpRequest(email: Self.email(bytes: 254), password: "secret1"))
    #expect(
      await refusal { _ = try await backend.signUp(SignUpRequest(email: Self.email(bytes: 255), password: "secret1")) }
        == "INVALID_EMAIL")
  }

  @Test func aPasswordLongerThan4096CharactersIsRefusedWithThePolicysError() async throws {
    let long = String(repeating: "p", count: 4_097)
    let code = await refusal { _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: long)) }
    #expect(code == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: String(long.dropLast())))
  }

  @Test func aLongDisplayNameOrPhotoURLIsRefusedByTheClientAndTheAdminAPI() async throws {
    let ada = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let longName = String(repeating: "n", count: 257)
    let longPhoto = URL(string: "https://example.com/" + String(repeating: "p", count: 2_048))!
    #expect(
      await refusal {
        _ = try await backend.update(UpdateAccountRequest(idToken: ada.tokens.idToken, displayName: longName))
      } == "INVALID_ARGUMENT")
    #expect(
      await refusal {
        _ = try await backend.update(UpdateAccountRequest(idToken: ada.tokens.idToken, photoURL: longPhoto))
      } == "INVALID_ARGUMENT")
    #expect(
      await refusal {
        var changes = AdminAccountChanges()
        changes.displayName = longName
        _ = try await backend.adminUpdate(uid: ada.localID, changes)
      } == "INVALID_ARGUMENT")
    _ = try await backend.update(
      UpdateAccountRequest(idToken: ada.tokens.idToken, displayName: String(longName.dropLast())))
    #expect(try await backend.storedAccount(uid: ada.localID)?.displayName?.count == 256)
  }
}
