import Foundation
import SignInKit
import SignInKitEmbedded
import Testing

/// reCAPTCHA Enterprise on every transport: the project's settings decide whether a protected
/// call needs a token, the client asks its provider only when one is on, and the backend refuses a
/// call without a valid token before it texts, mails or makes anything.
@Suite struct RecaptchaTests {
  /// Sets the project's enforcement: through the admin API (`PATCH v2/projects/P/config`) when it
  /// is served, as an Admin SDK would, else on the embedded backend.
  static func enforce(
    _ fixture: FlowFixture, emailPassword: RecaptchaEnforcement, phone: RecaptchaEnforcement
  ) async throws {
    guard let host = fixture.host else {
      try await fixture.backend.enforceRecaptcha(emailPassword: emailPassword, phone: phone)
      return
    }
    let project = fixture.backend.configuration.projectID
    let mask = "recaptchaConfig.emailPasswordEnforcementState,recaptchaConfig.phoneEnforcementState"
    var request = HTTPRequest(
      method: "PATCH",
      url: URL(
        string: "http://\(host)/identitytoolkit.googleapis.com/v2/projects/\(project)/config?updateMask=\(mask)")!,
      headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")])
    request.body = Data(
      #"{"recaptchaConfig":{"emailPasswordEnforcementState":"\#(emailPassword.rawValue.uppercased())","#
        .appending(#""phoneEnforcementState":"\#(phone.rawValue.uppercased())"}}"#).utf8)
    let reply = try await URLSessionTransport().send(request)
    #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
  }

  @Test(arguments: FlowBackend.allCases)
  func enforcedWithoutATokenProviderRefusesAndTextsNothing(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    try await Self.enforce(fixture, emailPassword: .enforce, phone: .enforce)
    let texting = try await #require(throws: AuthError.self) {
      try await fixture.auth.verifyPhoneNumber("+15555550100")
    }
    #expect(texting.code == .recaptchaRequired)
    #expect(texting.message.contains("RecaptchaTokenProvider"), "the message names what to add")
    #expect(await fixture.backend.verificationCodes().isEmpty, "no code was texted")
    let signingUp = try await #require(throws: AuthError.self) {
      try await fixture.auth.signUp(email: "ada@example.com", password: "correct horse")
    }
    #expect(signingUp.code == .recaptchaRequired)
    #expect(await fixture.backend.uid(forEmail: "ada@example.com") == nil, "no account was made")
  }

  @Test(arguments: FlowBackend.allCases)
  func auditLetsCallsThroughWithOrWithoutAToken(on kind: FlowBackend) async throws {
    let tokens = TestRecaptchaTokenProvider()
    let fixture = try FlowFixture(kind, recaptcha: tokens)
    defer { fixture.stop() }
    try await Self.enforce(fixture, emailPassword: .audit, phone: .audit)
    _ = try await fixture.auth.verifyPhoneNumber("+15555550100")
    #expect(await fixture.backend.verificationCodes().count == 1)
    #expect(tokens.asked == [.sendVerificationCode], "under AUDIT the token is sent for assessment")

    let bare = try FlowFixture(kind)
    defer { bare.stop() }
    try await Self.enforce(bare, emailPassword: .audit, phone: .audit)
    _ = try await bare.auth.verifyPhoneNumber("+15555550100")
    #expect(await bare.backend.verificationCodes().count == 1, "AUDIT texts without a token too")
  }

  @Test(arguments: FlowBackend.allCases)
  func enforcedWithATokenSendsAndAsksTheProviderOnceForTheCallsAction(on kind: FlowBackend) async throws {
    let tokens = TestRecaptchaTokenProvider()
    let fixture = try FlowFixture(kind, recaptcha: tokens)
    defer { fixture.stop() }
    try await Self.enforce(fixture, emailPassword: .enforce, phone: .enforce)
    _ = try await fixture.auth.verifyPhoneNumber("+15555550100")
    #expect(await fixture.backend.verificationCodes().count == 1)
    #expect(tokens.asked == [.sendVerificationCode])
    _ = try await fixture.auth.signUp(email: "ada@example.com", password: "correct horse")
    try await fixture.auth.signOut()
    _ = try await fixture.auth.signIn(email: "ada@example.com", password: "correct horse")
    try await fixture.auth.sendPasswordReset(to: "ada@example.com")
    #expect(tokens.asked == [.sendVerificationCode, .signUpPassword, .signInWithPassword, .getOobCode])
  }

  @Test(arguments: FlowBackend.allCases)
  func settingsTurnedOnAfterTheyWereReadAreFollowedWithOneRetry(on kind: FlowBackend) async throws {
    let tokens = TestRecaptchaTokenProvider()
    let fixture = try FlowFixture(kind, recaptcha: tokens)
    defer { fixture.stop() }
    _ = try await fixture.auth.signUp(email: "ada@example.com", password: "correct horse")
    #expect(tokens.asked.isEmpty, "OFF: no token is asked for")
    try await fixture.auth.signOut()
    try await Self.enforce(fixture, emailPassword: .enforce, phone: .off)
    // The client still holds OFF: the server asks for a token, and the call is made again with one.
    _ = try await fixture.auth.signIn(email: "ada@example.com", password: "correct horse")
    #expect(tokens.asked == [.signInWithPassword])
  }

  @Test(arguments: FlowBackend.allCases)
  func aTokenMadeForAnotherActionIsRefusedAfterOneRetry(on kind: FlowBackend) async throws {
    let wrong = MisdirectedTokens()
    let fixture = try FlowFixture(kind, recaptcha: wrong)
    defer { fixture.stop() }
    try await Self.enforce(fixture, emailPassword: .off, phone: .enforce)
    let error = try await #require(throws: AuthError.self) {
      try await fixture.auth.verifyPhoneNumber("+15555550100")
    }
    #expect(error.code == .appVerificationFailed)
    #expect(wrong.asked.count == 2, "one retry with a new token, no more")
    #expect(await fixture.backend.verificationCodes().isEmpty)
  }
}

extension RecaptchaTests {
  @Test func aTenantsOwnSettingsOverrideTheProjectsWhenServed() async throws {
    let fixture = try FlowFixture(.served)
    defer { fixture.stop() }
    let host = try #require(fixture.host)
    let project = fixture.backend.configuration.projectID
    var request = HTTPRequest(
      method: "POST",
      url: URL(string: "http://\(host)/identitytoolkit.googleapis.com/v2/projects/\(project)/tenants")!,
      headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")])
    request.body = Data(
      #"{"displayName":"Acme","recaptchaConfig":{"phoneEnforcementState":"ENFORCE"}}"#.utf8)
    let created = try await URLSessionTransport().send(request)
    #expect(created.status == 200, "\(String(decoding: created.body, as: UTF8.self))")
    let tenant = try #require(
      (try JSONSerialization.jsonObject(with: created.body) as? [String: Any])?["tenantId"] as? String)

    // The project's own users are not protected; the tenant's are.
    _ = try await fixture.auth.verifyPhoneNumber("+15555550100")
    var client = try FirebaseBackend.emulator(host: host, projectID: project)
    client.tenantID = tenant
    let tenantAuth = Auth(backend: client, store: InMemorySessionStore())
    let refused = try await #require(throws: AuthError.self) { try await tenantAuth.verifyPhoneNumber("+15555550101") }
    #expect(refused.code == .recaptchaRequired)
    client.recaptcha = TestRecaptchaTokenProvider()
    _ = try await Auth(backend: client, store: InMemorySessionStore()).verifyPhoneNumber("+15555550101")
  }
}

/// Test tokens made for sign-in whatever the call, which the backends refuse for any other.
struct MisdirectedTokens: RecaptchaTokenProvider {
  let clientType = RecaptchaClientType.ios
  private let tokens = TestRecaptchaTokenProvider()

  var asked: [RecaptchaAction] { tokens.asked }

  func token(for action: RecaptchaAction, siteKey: String) async throws -> String {
    try await tokens.token(for: .signInWithPassword, siteKey: siteKey)
  }
}
