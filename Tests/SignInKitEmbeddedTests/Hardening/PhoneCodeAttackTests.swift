import Foundation
import SignInEmbeddedTestSupport
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Review N3 and N4: texted codes cannot be guessed by opening session after session, and
/// someone who knows a number cannot void the code its owner is about to type by sending more.
@Suite struct PhoneCodeAttackTests {
  let clock = TestDate()
  let backend: EmbeddedBackend
  static let number = "+15555550100"

  init() throws { backend = try EmbeddedTestBackend.backend(EmbeddedTestBackend.fast, clock: clock) }

  func send() async throws -> (session: String, code: String) {
    let sent = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    let code = try #require(await backend.verificationCodes().first { $0.sessionInfo == sent.verificationID }?.code)
    return (sent.verificationID, code)
  }

  func signIn(_ session: String, _ code: String) async -> String? {
    await EmbeddedBackendCustomTokenTests.refusal {
      _ = try await backend.signInWithPhoneNumber(PhoneSignInRequest(verificationID: session, code: code))
    }
  }

  static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

  @Test func wrongCodesAcrossSessionsReachTheNumbersThrottle() async throws {
    // Four wrong codes in one session (one short of its own limit), then one in another.
    let first = try await send()
    for _ in 0..<4 { #expect(await signIn(first.session, Self.wrong(first.code))?.hasPrefix("INVALID_CODE") == true) }
    let (session, code) = try await send()
    #expect(await signIn(session, Self.wrong(code))?.hasPrefix("INVALID_CODE") == true)
    // The number has had five wrong codes: even the right one waits now.
    let throttled = await signIn(session, code)
    #expect(throttled?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(throttled ?? "signed in")")
    // Throttled, not locked: after the wait the right code signs in.
    clock.advance(31)
    #expect(await signIn(session, code) == nil)
  }

  @Test func aNumbersLiveCodesAreNotPushedOutByNewerSends() async throws {
    let first = try await send()
    _ = try await send()
    _ = try await send()
    let refused = await EmbeddedBackendCustomTokenTests.refusal {
      _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: Self.number))
    }
    #expect(refused?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER") == true, "\(refused ?? "sent")")
    #expect(await signIn(first.session, first.code) == nil, "the owner's first code still works")
    // Once the codes expire, the number can be sent codes again.
    clock.advance(EmbeddedBackend.phoneCodeWindow + 1)
    _ = try await send()
  }
}
