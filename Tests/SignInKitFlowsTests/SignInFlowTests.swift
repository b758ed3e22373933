import Foundation
import SignInEmbeddedTestSupport
import SignInEmulator
import SignInKit
import SignInKitEmbedded
import SignInKitFlows
import SignInKitTesting
import Testing

/// Where a flow's `Auth` signs in: the embedded backend in process, the same backend behind
/// `signin serve`'s server, reached over HTTP by `FirebaseBackend`, or a `ScriptedBackend` (the
/// embedded backend in memory behind the testing module's recorder).
enum FlowBackend: String, CaseIterable, Sendable {
  case scripted, embedded, served
}

/// The flows' words in English, which the tests read.
let english = FlowStrings(language: "en")

/// An embedded backend, an `Auth` over it (directly or through a loopback server), and the wall
/// clock both read.
final class FlowFixture: Sendable {
  let clock = TestDate()
  let backend: EmbeddedBackend
  let auth: Auth
  private let server: FirebaseEmulatorServer?

  /// The loopback address of the served backend (`host:port`), when it is served.
  var host: String? { server?.host }

  /// - Parameter recaptcha: where the client gets reCAPTCHA tokens; `nil` sends none.
  init(
    _ kind: FlowBackend, acceptsUnsignedIdPTokens: Bool = false, recaptcha: (any RecaptchaTokenProvider)? = nil
  ) throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = acceptsUnsignedIdPTokens
    configuration.recaptcha = recaptcha
    let clock = clock
    if kind == .scripted {
      // The scripted backend's accounts accept unsigned IdP tokens, as the emulator does.
      let scripted = ScriptedBackend(now: { clock.now }, recaptcha: recaptcha)
      backend = scripted.accounts
      server = nil
      auth = Auth(backend: scripted, store: InMemorySessionStore())
      return
    }
    backend = try EmbeddedTestBackend.backend(configuration, clock: clock)
    switch kind {
    case .scripted, .embedded:
      server = nil
      auth = Auth(backend: backend, store: InMemorySessionStore())
    case .served:
      let server = try FirebaseEmulatorServer(backend: backend, port: 0)
      self.server = server
      var client = try FirebaseBackend.emulator(host: server.host, projectID: backend.configuration.projectID)
      // The client reads the same clock as the backend, so a served wait lands on the same date.
      client.now = { clock.now }
      client.recaptcha = recaptcha
      auth = Auth(backend: client, store: InMemorySessionStore())
    }
  }

  /// Stops the server; a test defers it, which also keeps the fixture alive to its end.
  func stop() { server?.stop() }
}

/// The sign-in flow driven as a person drives its screens: fields typed, a submit, the next step,
/// on the embedded backend and over HTTP.
@MainActor @Suite struct SignInFlowTests {
  @Test(arguments: FlowBackend.allCases)
  func signsUpThenSignsInWithEmailAndPassword(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    let flow = SignInFlow(auth: auth)
    flow.strings = english
    #expect(flow.step == .email(.signIn))
    flow.switchEmailMode(to: .signUp)
    flow.email = " ada@example.com "
    flow.password = "correct horse"
    await flow.submit()
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.email == "ada@example.com")
    #expect(flow.password.isEmpty, "the password is not kept once it was used")

    try await auth.signOut()
    let again = SignInFlow(auth: auth)
    again.strings = english
    again.email = "ada@example.com"
    again.password = "correct horse"
    await again.submit()
    #expect(again.step == .signedIn(user))
  }

  @Test(arguments: FlowBackend.allCases)
  func aWrongPasswordSaysWhatToDoAndStaysOnTheStep(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    let flow = SignInFlow(auth: auth)
    flow.strings = english
    flow.email = "ada@example.com"
    flow.password = "wrong horse"
    await flow.submit()
    #expect(flow.step == .email(.signIn))
    #expect(flow.errorMessage == "The email or password is wrong. Try again, or reset your password.")
    #expect(!flow.isBusy)
  }

  @Test(arguments: FlowBackend.allCases)
  func forgotPasswordMailsTheLinkAndSaysWhere(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (auth, backend) = (fixture.auth, fixture.backend)
    _ = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    let flow = SignInFlow(auth: auth)
    flow.strings = english
    flow.switchEmailMode(to: .forgotPassword)
    flow.email = "ada@example.com"
    await flow.submit()
    #expect(flow.step == .passwordResetSent(to: "ada@example.com"))
    #expect(await backend.mailbox(for: "ada@example.com").last?.kind == "PASSWORD_RESET")
    flow.cancel()
    #expect(flow.step == .email(.forgotPassword))
  }

  @Test(arguments: FlowBackend.allCases)
  func cancelReturnsToTheStepBeforeWithNoMessage(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    let flow = SignInFlow(auth: auth, methods: [.emailPassword, .phone])
    flow.strings = english
    #expect(flow.step == .chooseMethod([.emailPassword, .phone]))
    await flow.choose(.emailPassword)
    flow.email = "ada@"
    await flow.submit()
    #expect(flow.errorMessage != nil)
    flow.cancel()
    #expect(flow.step == .chooseMethod([.emailPassword, .phone]))
    #expect(flow.errorMessage == nil)
    flow.cancel()
    #expect(flow.step == .chooseMethod([.emailPassword, .phone]), "the first step stays")
  }

  @Test(arguments: FlowBackend.allCases)
  func anAccountWithATOTPFactorLandsOnTheSecondFactorStepAndFinishesThere(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (auth, backend, clock) = (fixture.auth, fixture.backend, fixture.clock)
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let app = try await AuthenticatorApp.enrol(
      on: backend, mailbox: backend, email: "ada@example.com", idToken: session.tokens.idToken, clock: clock)
    let flow = SignInFlow(auth: auth)
    flow.strings = english
    flow.email = "ada@example.com"
    flow.password = "correct horse"
    await flow.submit()
    guard case .secondFactor(let factors, let chosen) = flow.step else {
      throw FlowFailure("no second factor: \(flow.step)")
    }
    #expect(factors.map(\.kind) == [.totp])
    #expect(chosen == factors.first, "the only factor, an app, is chosen already")
    #expect(flow.errorMessage == nil)

    flow.code = "000000" == app.code(at: clock.now) ? "111111" : "000000"
    await flow.submit()
    #expect(flow.errorMessage == "That code is wrong. Check it and try again.")
    flow.code = app.code(at: clock.now)
    await flow.submit()
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.uid == session.localID)
  }

  @Test(arguments: FlowBackend.allCases)
  func anAccountWithAnAppAndAPhoneListsBothWithTheNumberMaskedAndTextsTheChosenOne(on kind: FlowBackend)
    async throws
  {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (auth, backend, clock) = (fixture.auth, fixture.backend, fixture.clock)
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    // A verified email, a phone factor, then an authenticator app.
    _ = try await backend.sendOobCode(.verifyEmail(idToken: session.tokens.idToken), settings: nil)
    let verification = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    _ = try await backend.update(UpdateAccountRequest(oobCode: verification))
    guard
      case .codeSent(let sent) = try await backend.secondFactor(
        .startPhoneEnrollment(idToken: session.tokens.idToken, phoneNumber: "+15555550123"))
    else { throw FlowFailure("no code sent") }
    let enrolment = try #require(await backend.verificationCodes().last?.code)
    guard
      case .tokens(let tokens, _) = try await backend.secondFactor(
        .finalizePhoneEnrollment(
          idToken: session.tokens.idToken, verificationID: sent.verificationID, code: enrolment, displayName: "Phone"))
    else { throw FlowFailure("no tokens") }
    _ = try await AuthenticatorApp.enrol(
      on: backend, mailbox: backend, email: "ada@example.com", idToken: tokens.idToken, clock: clock)

    let flow = SignInFlow(auth: auth)

    flow.strings = english
    flow.email = "ada@example.com"
    flow.password = "correct horse"
    await flow.submit()
    guard case .secondFactor(let factors, nil) = flow.step else { throw FlowFailure("no choice: \(flow.step)") }
    #expect(Set(factors.map(\.kind)) == [.phone, .totp])
    let phone = try #require(factors.first { $0.kind == .phone })
    #expect(phone.phoneNumber == "+*******0123")
    await flow.submit()
    #expect(flow.errorMessage == "Choose how to confirm it's you.")

    await flow.chooseSecondFactor(phone)
    #expect(flow.step == .secondFactor(factors: factors, chosen: phone))
    flow.code = try #require(await backend.verificationCodes().last?.code)
    await flow.submit()
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.uid == session.localID)
  }

  @Test(arguments: FlowBackend.allCases)
  func phoneSignInTakesTheCountryCodeAndShowsTheNumberMasked(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let (auth, backend) = (fixture.auth, fixture.backend)
    let flow = SignInFlow(auth: auth, methods: [.phone])
    flow.strings = english
    #expect(flow.step == .phoneNumber)
    flow.countryCode = "1"
    flow.phoneNumber = "(555) 555-0123"
    await flow.submit()
    #expect(flow.step == .phoneCode(sentTo: "+*******0123"))
    let texted = try #require(await backend.verificationCodes().last)
    #expect(texted.phoneNumber == "+15555550123")
    flow.code = texted.code
    await flow.submit()
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.phoneNumber == "+15555550123")
  }

  @Test(arguments: FlowBackend.allCases)
  func aGitHubSignInWhoseEmailHasAPasswordAccountEndsLinkedAfterOnePasswordEntry(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind, acceptsUnsignedIdPTokens: true)
    defer { fixture.stop() }
    let auth = fixture.auth
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.signOut()
    let github = StubProvider(
      .github,
      result: .success(
        ProviderCredential(
          providerID: .github, idToken: #"{"sub":"gh-1815","email":"ada@example.com","email_verified":true}"#)))
    let flow = SignInFlow(auth: auth, methods: [.emailPassword, .identityProvider(.github)], providers: [github])
    flow.strings = english

    await flow.choose(.identityProvider(.github))
    #expect(flow.step == .linkingConflict(email: "ada@example.com", provider: .github, methods: [.password]))
    #expect(flow.email == "ada@example.com")
    #expect(flow.errorMessage == nil)
    flow.password = "correct horse"
    await flow.submit()
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.uid == ada.user.uid)
    #expect(user.providers.contains { $0.providerID == .github })

    // From now on GitHub signs in to the same account, with no password.
    try await auth.signOut()
    let again = SignInFlow(auth: auth, methods: [.identityProvider(.github)], providers: [github])
    again.strings = english
    #expect(again.step == .chooseMethod([.identityProvider(.github)]))
    await again.choose(.identityProvider(.github))
    #expect(again.step == .signedIn(user))
  }

  @Test(arguments: FlowBackend.allCases)
  func aPasskeySignsInAtOnce(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    let device = try DevelopmentPasskeyAuthenticator(directory: nil)
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.enrollPasskey(named: "Laptop", using: device)
    try await auth.signOut()
    let flow = SignInFlow(auth: auth, methods: [.passkey, .emailPassword], passkeys: device)
    flow.strings = english
    await flow.choose(.passkey)
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.uid == ada.user.uid)
  }

  @Test(arguments: FlowBackend.allCases)
  func passkeysOfferedInAutoFillSignInWithoutMarkingTheScreenBusy(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    let device = try DevelopmentPasskeyAuthenticator(directory: nil)
    let ada = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    try await auth.enrollPasskey(named: "Laptop", using: device)
    try await auth.signOut()
    let flow = SignInFlow(auth: auth, methods: [.emailPassword, .passkey], passkeys: device)
    flow.strings = english
    await flow.offerPasskeysInAutoFill()
    #expect(!flow.isBusy)
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.uid == ada.user.uid)
  }

  @Test(arguments: FlowBackend.allCases)
  func aProviderTheAppPresentedItselfSignsInThroughTheFlow(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind, acceptsUnsignedIdPTokens: true)
    defer { fixture.stop() }
    let button = StubProvider(
      .google,
      result: .success(ProviderCredential(providerID: .google, idToken: #"{"sub":"g-42","email":"ada@example.com"}"#)))
    let flow = SignInFlow(auth: fixture.auth, methods: [.identityProvider(.google)])
    flow.strings = english
    await flow.signIn(with: button)
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.email == "ada@example.com")
  }

  @Test(arguments: FlowBackend.allCases)
  func aProviderTheAppDidNotSetUpSaysSo(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let auth = fixture.auth
    let flow = SignInFlow(auth: auth, methods: [.identityProvider(.google)])
    flow.strings = english
    await flow.choose(.identityProvider(.google))
    #expect(flow.errorMessage == "This app has no Google sign-in set up; choose another way.")
    #expect(flow.step == .chooseMethod([.identityProvider(.google)]))
  }

  /// The listing of the SignInKitFlows article.
  @Test func aPhoneSignInAsTheArticleShowsIt() async throws {
    let fixture = try FlowFixture(.embedded)
    defer { fixture.stop() }
    let auth = fixture.auth
    func codeTheUserTyped() async throws -> String {
      try #require(await fixture.backend.verificationCodes().last?.code)
    }
    // snippet.begin sign-in-flow
    let flow = SignInFlow(auth: auth, methods: [.emailPassword, .phone])
    await flow.choose(.phone)
    flow.countryCode = "44"
    flow.phoneNumber = "07700 900123"
    await flow.submit()  // .phoneCode(sentTo: "+********0123")
    flow.code = try await codeTheUserTyped()
    await flow.submit()  // .signedIn(user), or .secondFactor(…)
    // snippet.end
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.phoneNumber == "+447700900123")
  }

  @Test(arguments: [
    ("", SignInFlow.EmailMode.signIn, "correct horse", "Enter your email address."),
    ("ada@", .signIn, "correct horse", "ada@ is not an email address; check it and try again."),
    ("not an email", .signUp, "correct horse", "not an email is not an email address; check it and try again."),
    ("ada@example.com", .signIn, "", "Enter your password."),
    ("ada@example.com", .signUp, "short", "Your password needs at least 6 characters."),
  ])
  func fieldsAreCheckedBeforeAnyCall(email: String, mode: SignInFlow.EmailMode, password: String, message: String)
    async
  {
    let scripted = ScriptedBackend()
    let flow = SignInFlow(auth: Auth(backend: scripted, store: InMemorySessionStore()))
    flow.strings = english
    flow.switchEmailMode(to: mode)
    flow.email = email
    flow.password = password
    await flow.submit()
    #expect(flow.errorMessage == message)
    // Only the password policy is read, for a new password.
    #expect(scripted.calls.allSatisfy { $0.call == .passwordPolicy }, "nothing else was sent: \(scripted.calls)")
  }

  @Test func isBusyIsTrueExactlyWhileTheCallRuns() async throws {
    let manual = ManualClock()
    let scripted = ScriptedBackend(clock: manual)
    let flow = SignInFlow(auth: Auth(backend: scripted, store: InMemorySessionStore()))
    flow.strings = english
    flow.switchEmailMode(to: .signUp)
    flow.email = "ada@example.com"
    flow.password = "correct horse"
    scripted.script(.signUp, .delay(.seconds(5)))
    #expect(!flow.isBusy)
    let submitting = Task { await flow.submit() }
    await manual.sleepers(atLeast: 1)
    #expect(flow.isBusy)
    await flow.submit()
    #expect(scripted.count(of: .signUp) == 1, "a second submit while busy sends nothing")
    manual.advance(by: .seconds(5))
    await submitting.value
    #expect(!flow.isBusy)
    guard case .signedIn = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
  }

  /// A backend whose project asks for eight characters, an uppercase letter and a digit.
  struct StrictPolicy: AuthBackendDecorator {
    let wrapped: any AuthBackend
    func intercept<Result: Sendable>(_ call: AuthBackendCall, forward: () async throws -> Result) async throws
      -> Result
    { try await forward() }
    func passwordPolicy() async throws -> PasswordPolicy {
      PasswordPolicy(minimumLength: 8, requiresUppercase: true, requiresDigit: true, isEnforced: true)
    }
  }

  @Test func aNewPasswordIsCheckedAgainstTheProjectsPolicyBeforeTheSignUp() async throws {
    let scripted = ScriptedBackend()
    let flow = SignInFlow(auth: Auth(backend: StrictPolicy(wrapped: scripted), store: InMemorySessionStore()))
    flow.strings = english
    flow.switchEmailMode(to: .signUp)
    flow.email = "ada@example.com"
    flow.password = "horse"
    await flow.submit()
    #expect(flow.errorMessage == "Your password needs at least 8 characters, an uppercase letter, a digit.")
    #expect(scripted.count(of: .signUp) == 0)
    flow.password = "Correct horse 1"
    await flow.submit()
    guard case .signedIn = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }

    let again = SignInFlow(auth: Auth(backend: StrictPolicy(wrapped: scripted), store: InMemorySessionStore()))
    again.strings = FlowStrings(language: "es")
    again.switchEmailMode(to: .signUp)
    again.email = "grace@example.com"
    again.password = "horse"
    await again.submit()
    #expect(again.errorMessage == "Tu contraseña necesita al menos 8 caracteres, una letra mayúscula, un número.")
  }

  @Test(arguments: FlowBackend.allCases)
  func aSheetThePersonClosedLeavesTheStepAsItWasWithNoMessage(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind)
    defer { fixture.stop() }
    let google = StubProvider(.google, result: .failure(AuthError(.userCancelled, "The sign-in sheet was closed.")))
    let flow = SignInFlow(
      auth: fixture.auth, methods: [.emailPassword, .identityProvider(.google)], providers: [google])
    flow.strings = english
    await flow.choose(.identityProvider(.google))
    #expect(flow.step == .chooseMethod([.emailPassword, .identityProvider(.google)]))
    #expect(flow.errorMessage == nil)
    #expect(!flow.isBusy)
  }

  @Test(arguments: FlowBackend.allCases)
  func aConflictWithAnAccountOfAnotherProviderIsSolvedBySigningInWithIt(on kind: FlowBackend) async throws {
    let fixture = try FlowFixture(kind, acceptsUnsignedIdPTokens: true)
    defer { fixture.stop() }
    let auth = fixture.auth
    let google = StubProvider(
      .google,
      result: .success(
        ProviderCredential(
          providerID: .google, idToken: #"{"sub":"g-1815","email":"ada@example.com","email_verified":true}"#)))
    let ada = try await auth.signIn(with: google)
    try await auth.signOut()
    let github = StubProvider(
      .github,
      result: .success(
        ProviderCredential(
          providerID: .github, idToken: #"{"sub":"gh-1815","email":"ada@example.com","email_verified":true}"#)))
    let flow = SignInFlow(
      auth: auth, methods: [.identityProvider(.google), .identityProvider(.github)], providers: [google, github])
    flow.strings = english
    await flow.choose(.identityProvider(.github))
    #expect(flow.step == .linkingConflict(email: "ada@example.com", provider: .github, methods: [.google]))
    await flow.choose(.identityProvider(.google))
    guard case .signedIn(let user) = flow.step else { throw FlowFailure("not signed in: \(flow.step)") }
    #expect(user.uid == ada.user.uid)
    #expect(Set(user.providers.map(\.providerID)) == [.google, .github])
  }
}

/// A flow that did not reach the step a test expected.
struct FlowFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
