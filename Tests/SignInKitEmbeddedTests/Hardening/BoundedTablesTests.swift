import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Item 15 of the third hardening: what unauthenticated calls add is purged and capped, so no
/// table grows with every request, and the mailbox keeps only live codes.
@Suite struct BoundedTablesTests {
  let clock = TestDate()
  let backend: EmbeddedBackend
  static let link = ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true)

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.limits.actionCodes = 50
    configuration.limits.mail = 40
    backend = try EmbeddedTestBackend.backend(configuration, clock: clock)
  }

  func sendLink(_ email: String) async throws {
    _ = try await backend.sendOobCode(.emailSignIn(email: email), settings: Self.link)
  }

  @Test func aFloodOfLinksToOneAddressKeepsItsNewestFive() async throws {
    var codes: [String] = []
    for _ in 0..<100 {
      try await sendLink("victim@example.com")
      codes.append(try #require(await backend.mailbox(for: "victim@example.com").last?.code))
    }
    #expect(try await backend.storedActionCodeCount() == 5)
    #expect(await backend.mailbox(for: "victim@example.com").map(\.code) == Array(codes.suffix(5)))
    // The replaced codes no longer work; the newest does.
    let old = await EmbeddedBackendCustomTokenTests.refusal {
      _ = try await backend.signInWithEmailLink(EmailLinkSignInRequest(email: "victim@example.com", oobCode: codes[0]))
    }
    #expect(old == "INVALID_OOB_CODE")
    _ = try await backend.signInWithEmailLink(EmailLinkSignInRequest(email: "victim@example.com", oobCode: codes[99]))
  }

  @Test func manyAddressesStopAtTheCapWithAClearErrorAndTheMailboxStaysBounded() async throws {
    for index in 0..<50 { try await sendLink("user\(index)@example.com") }
    #expect(await backend.mailbox().count == 40)
    let refused = await EmbeddedBackendCustomTokenTests.refusal { try await sendLink("one-more@example.com") }
    #expect(refused == "TOO_MANY_ATTEMPTS_TRY_LATER")
    // Once the codes expire, the next send purges them in its own transaction.
    clock.advance(3601)
    try await sendLink("later@example.com")
    #expect(try await backend.storedActionCodeCount() == 1)
    #expect(await backend.mailbox().map(\.to) == ["later@example.com"])
  }

  @Test func aUsedCodeLeavesTheMailbox() async throws {
    try await sendLink("ada@example.com")
    let code = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    _ = try await backend.signInWithEmailLink(EmailLinkSignInRequest(email: "ada@example.com", oobCode: code))
    #expect(await backend.mailbox().isEmpty)
    #expect(try await backend.storedMailCount() == 0, "nothing stored holds the code's text")
  }

  @Test func startedEnrollmentsAndPendingSignInsKeepAFewPerAccount() async throws {
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    _ = try await backend.sendOobCode(.verifyEmail(idToken: session.tokens.idToken), settings: nil)
    _ = try await backend.update(
      UpdateAccountRequest(oobCode: try #require(await backend.mailbox(for: "ada@example.com").last?.code)))
    var sessions: [String] = []
    for _ in 0..<20 {
      guard
        case .secret(let totp) = try await backend.secondFactor(.startTOTPEnrollment(idToken: session.tokens.idToken))
      else { throw AuthError(.internal, "no secret") }
      sessions.append(totp.sessionInfo)
    }
    #expect(
      try await backend.storedPendingKeyDigests(PendingEnrollment.kind)
        == sessions.suffix(3).map { Crypto.sha256Hex(Array($0.utf8)) })
  }
}
