import Foundation
import SignInKit
import SignInKitExamples
import SignInKitTesting
import Testing

/// The phone article's examples, run against the scripted backend: its texts are read as a test
/// phone would, and its clock is the test's.
@Suite(.timeLimit(.minutes(3)))
@MainActor struct PhoneSignInExamplesTests {
  let clock = ManualClock()
  let backend: ScriptedBackend
  let store = InMemorySessionStore()

  init() {
    let clock = clock
    backend = ScriptedBackend(now: { clock.date })
  }

  func auth() -> Auth {
    let clock = clock
    return Auth(backend: backend, store: store, clock: clock, now: { clock.date })
  }

  func textedCode() async throws -> String { try #require(await backend.textedCodes().last?.code) }

  @Test func theFlowSendsACodeTakesItAndSignsIn() async throws {
    let flow = PhoneSignInFlow(auth: auth())
    flow.phoneNumber = "+1 555 555 0100"
    await flow.sendCode()
    guard case .code(let verification) = flow.step else {
      Issue.record("no code step: \(flow.step)")
      return
    }
    #expect(verification.phoneNumber == "+15555550100")
    let code = try await textedCode()
    flow.code = code == "000000" ? "111111" : "000000"
    await flow.submitCode()
    #expect(flow.step == .code(verification), "a wrong code stays on the code step")
    #expect(flow.message?.contains("wrong") == true || flow.message?.contains("code") == true)
    flow.code = code
    await flow.submitCode()
    guard case .signedIn(let user) = flow.step else {
      Issue.record("not signed in: \(flow.step)")
      return
    }
    #expect(user.phoneNumber == "+15555550100")
  }

  @Test func aCodeTextedBeforeARelaunchIsPickedUpAndAnExpiredOneSendsBackToTheNumber() async throws {
    let first = PhoneSignInFlow(auth: auth())
    first.phoneNumber = "+15555550100"
    await first.sendCode()

    let relaunched = PhoneSignInFlow(auth: auth())
    await relaunched.resume()
    #expect(relaunched.phoneNumber == "+15555550100")
    guard case .code = relaunched.step else {
      Issue.record("not resumed: \(relaunched.step)")
      return
    }

    relaunched.code = try await textedCode()
    clock.advance(by: .seconds(11 * 60))
    await relaunched.submitCode()
    #expect(relaunched.step == .number)
    #expect(relaunched.message == "That code has expired. Send a new one.")
  }

  @Test func aNumberNotInInternationalFormSaysWhatToType() async {
    let flow = PhoneSignInFlow(auth: auth())
    flow.phoneNumber = "555 0100"
    await flow.sendCode()
    #expect(flow.step == .number)
    #expect(flow.message?.contains("+15555550100") == true)
  }

  @Test func theProductionBackendProvesTheAppAndCarriesTenantAndAppCheck() throws {
    let (backend, _) = try phoneReadyBackend(
      configuration: FirebaseConfiguration(apiKey: "K", projectID: "p"), tenantID: "shop-1",
      appCheck: FixedAppCheck(),
      deviceToken: { .init(token: Data([1]), isSandbox: false) })
    #expect(backend.tenantID == "shop-1" && backend.appVerifier is SilentPushAppVerifier && backend.appCheck != nil)
  }

  struct FixedAppCheck: AppCheckTokenProvider {
    func token(forcingRefresh: Bool) async throws -> AppCheckToken {
      AppCheckToken(token: "t", expiresAt: .distantFuture)
    }
    func limitedUseToken() async throws -> AppCheckToken { AppCheckToken(token: "t", expiresAt: .distantFuture) }
  }

  // snippet.begin sms-second-factor
  @Test func anSMSSecondFactorIsEnrolledAndThenAskedFor() async throws {
    let auth = auth()
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.sendEmailVerification()  // enrolling needs a verified email
    try await auth.applyActionCode(try #require(await backend.codes(sentTo: "ada@example.com").last))
    let enrolment = try await auth.startPhoneEnrollment(phoneNumber: "+15555550123")
    try await auth.finishPhoneEnrollment(enrolment, code: try await textedCode(), displayName: "Work phone")
    try await auth.signOut()

    do {
      _ = try await auth.signIn(email: "ada@example.com", password: "correct horse")
    } catch let error as AuthError where error.code == .secondFactorRequired {
      let challenge = try #require(error.secondFactor)
      let phone = try #require(challenge.factors.first { $0.kind == .phone })
      #expect(phone.phoneNumber == "+*******0123")  // what the screen shows to choose from
      let verification = try await auth.sendSecondFactorCode(for: challenge, enrollmentID: phone.enrollmentID)
      _ = try await auth.resolveSignIn(challenge, verification: verification, code: try await textedCode())
    }
    #expect(auth.currentUser?.email == "ada@example.com")
  }
  // snippet.end
}
