import Foundation
import SignInConcurrency
import SignInEmulator
import SignInKit
import SignInKitTesting
import Testing

/// The phone, SMS second-factor, tenant and App Check calls of `FirebaseBackend`: each request
/// against a golden file (`SIGNINKIT_RECORD_GOLDEN=1` rewrites them), with the app's proof in
/// both of FirebaseAuth's forms (a silent push's receipt and secret, a reCAPTCHA token).
@Suite struct FirebaseBackendPhoneWireTests {
  static func backend(_ transport: RecordingTransport) throws -> FirebaseBackend {
    try FirebaseBackendWireTests.backend(transport)
  }

  /// Checks each request `transport` saw, in order, against `Golden/<name>.curl`.
  static func expectGoldens(_ names: [String], _ transport: RecordingTransport) throws {
    let requests = transport.requests
    try #require(requests.count == names.count, "expected \(names.count) requests, saw \(requests.count)")
    for (name, request) in zip(names, requests) { try expectGolden(name, request) }
  }

  /// Checks `request` against `Golden/<name>.curl`.
  static func expectGolden(_ name: String, _ request: HTTPRequest) throws {
    let rendered = RecordingTransport.curl(request)
    let file = FirebaseBackendWireTests.golden.appendingPathComponent("\(name).curl")
    if ProcessInfo.processInfo.environment["SIGNINKIT_RECORD_GOLDEN"] == "1" {
      try Data(rendered.utf8).write(to: file)
    }
    #expect(rendered == (try String(contentsOf: file, encoding: .utf8)), "\(name).curl differs:\n\(rendered)")
  }

  /// A verifier that gives `proof` at once.
  struct FixedProof: PhoneAppVerifier {
    let proof: AppVerificationProof
    func proof(for backend: FirebaseBackend) async throws -> AppVerificationProof { proof }
  }

  @Test func aSilentPushReceiptAndItsSecretGoWithTheNumber() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"receipt":"RECEIPT-1","suggestedTimeout":"5"}"#), .status(200, #"{"sessionInfo":"SESSION-1"}"#),
    ])
    let pushes = SilentPushAppVerifier(
      deviceToken: { .init(token: Data([0xde, 0xad, 0xbe, 0xef]), isSandbox: true) }, clock: ManualClock())
    // APNs can deliver the push before verifyIosClient's reply reaches the app: it is kept.
    #expect(
      pushes.canHandle(notification: [
        SilentPushAppVerifier.notificationKey: #"{"receipt":"RECEIPT-1","secret":"SECRET-1"}"#
      ]))
    var backend = try Self.backend(transport)
    backend.appVerifier = pushes
    let sent = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    #expect(sent.verificationID == "SESSION-1")
    try Self.expectGoldens(["verifyIosClient", "sendVerificationCode-receipt"], transport)
  }

  @Test func withNoPushInTimeTheReCAPTCHAFallbackProvesTheApp() async throws {
    let clock = ManualClock()
    let transport = RecordingTransport([
      .status(200, #"{"receipt":"RECEIPT-2","suggestedTimeout":"7"}"#), .status(200, #"{"sessionInfo":"SESSION-2"}"#),
    ])
    var backend = try Self.backend(transport)
    backend.appVerifier = SilentPushAppVerifier(
      deviceToken: { .init(token: Data([1, 2]), isSandbox: false) },
      fallback: FixedProof(proof: .recaptcha(token: "RECAPTCHA-TOKEN")), clock: clock)
    let sending = Task { try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100")) }
    await clock.sleepers(atLeast: 1)
    clock.advance(by: .seconds(7))
    #expect(try await sending.value.verificationID == "SESSION-2")
    try Self.expectGoldens(["verifyIosClient-production", "sendVerificationCode-recaptcha"], transport)
  }

  @Test func theReCAPTCHAPageIsTheProjectsHostedHandlerAndItsAnswerCarriesTheToken() async throws {
    let sheet = RecordingSheet { url in
      let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
      let event = items.first { $0.name == "eventId" }?.value ?? ""
      let inner =
        "https://demo-project.firebaseapp.com/__/auth/callback?authType=verifyApp&eventId=\(event)"
        + "&recaptchaToken=TOKEN-3"
      var answer = URLComponents(string: "app-1-1234-ios-abcd://firebaseauth/link")!
      answer.queryItems = [URLQueryItem(name: "deep_link_id", value: inner)]
      return answer.url!
    }
    let verifier = try RecaptchaAppVerifier(session: sheet, authDomain: "demo-project.firebaseapp.com")
    let transport = RecordingTransport([.status(200, #"{"sessionInfo":"SESSION-3"}"#)])
    var backend = try Self.backend(transport)
    backend.appVerifier = verifier
    _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
    let opened = try #require(sheet.opened.first)
    #expect(opened.scheme == "app-1-1234-ios-abcd")
    var page = URLComponents(url: opened.url, resolvingAgainstBaseURL: false)!
    let event = page.queryItems?.first { $0.name == "eventId" }?.value
    #expect(event?.count == 11)
    page.queryItems = page.queryItems?.map { $0.name == "eventId" ? URLQueryItem(name: "eventId", value: "EVENT") : $0 }
    // The shape FirebaseAuth's PhoneAuthProvider opens (reCAPTCHAURL(withEventID:)).
    #expect(
      page.string
        == "https://demo-project.firebaseapp.com/__/auth/handler?apiKey=AIzaTestKey&authType=verifyApp"
        + "&ibi=com.example.app&v=Swift/SignInKit/0.1.0&eventId=EVENT&appId=1:1234:ios:abcd&hl=fr")
    #expect(String(decoding: transport.requests[0].body, as: UTF8.self).contains(#""recaptchaToken":"TOKEN-3""#))
  }

  @Test func aReCAPTCHAAnswerForAnotherEventOrWithAnErrorIsRefused() async throws {
    for inner in [
      "https://x/__/auth/callback?authType=verifyApp&eventId=OTHER&recaptchaToken=T",
      "https://x/__/auth/callback?authType=verifyApp&eventId=EVENT&firebaseError=%7B%22code%22%3A%22auth%2Finternal%22%2C%22message%22%3A%22no%22%7D",
    ] {
      let sheet = RecordingSheet { url in
        var answer = URLComponents(string: "app-1-1234-ios-abcd://firebaseauth/link")!
        let event = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "eventId" }?
          .value
        answer.queryItems = [
          URLQueryItem(name: "deep_link_id", value: inner.replacingOccurrences(of: "EVENT", with: event ?? ""))
        ]
        return answer.url!
      }
      var backend = try Self.backend(RecordingTransport())
      backend.appVerifier = try RecaptchaAppVerifier(session: sheet, authDomain: "demo-project.firebaseapp.com")
      let error = await #expect(throws: AuthError.self) {
        _ = try await backend.sendPhoneCode(PhoneCodeRequest(phoneNumber: "+15555550100"))
      }
      #expect(error?.code == .appVerificationFailed)
    }
  }

  @Test func theCodeSignsInLinksAndUpdatesTheNumber() async throws {
    let reply = #"{"localId":"uid1","phoneNumber":"+15555550100","isNewUser":true,\#(FirebaseBackendWireTests.tokens)}"#
    let transport = RecordingTransport([.status(200, reply), .status(200, reply), .status(200, reply)])
    let backend = try Self.backend(transport)
    let signedIn = try await backend.signInWithPhoneNumber(
      PhoneSignInRequest(verificationID: "SESSION-1", code: "123456"))
    #expect(signedIn.localID == "uid1" && signedIn.isNewUser)
    _ = try await backend.signInWithPhoneNumber(
      PhoneSignInRequest(verificationID: "SESSION-1", code: "123456", idToken: "ID.TOKEN.1", operation: .link))
    _ = try await backend.signInWithPhoneNumber(
      PhoneSignInRequest(verificationID: "SESSION-1", code: "123456", idToken: "ID.TOKEN.1", operation: .update))
    try Self.expectGoldens(
      ["signInWithPhoneNumber", "signInWithPhoneNumber-link", "signInWithPhoneNumber-update"], transport)
  }

  @Test func anSMSSecondFactorIsEnrolledAndAskedForWithPhoneInfo() async throws {
    let idToken = FirebaseBackendWireTests.unsignedJWT(#"{"sub":"uid1"}"#)
    let tokens = #""idToken":"\#(idToken)","refreshToken":"R2""#
    let transport = RecordingTransport([
      .status(200, #"{"phoneSessionInfo":{"sessionInfo":"ENROLL-1"}}"#), .status(200, "{\(tokens)}"),
      .status(200, #"{"phoneResponseInfo":{"sessionInfo":"SIGNIN-1"}}"#), .status(200, "{\(tokens)}"),
    ])
    var backend = try Self.backend(transport)
    backend.appVerifier = FixedProof(proof: .recaptcha(token: "RECAPTCHA-TOKEN"))
    guard
      case .codeSent(let enrolling) = try await backend.secondFactor(
        .startPhoneEnrollment(idToken: "ID.TOKEN.1", phoneNumber: "+15555550100"))
    else { throw AuthError(.internal, "no code") }
    #expect(enrolling.verificationID == "ENROLL-1")
    _ = try await backend.secondFactor(
      .finalizePhoneEnrollment(idToken: "ID.TOKEN.1", verificationID: "ENROLL-1", code: "123456", displayName: "Work"))
    guard
      case .codeSent(let signing) = try await backend.secondFactor(
        .startPhoneSignIn(pendingCredential: "PENDING-1", enrollmentID: "E1"))
    else { throw AuthError(.internal, "no code") }
    #expect(signing.verificationID == "SIGNIN-1")
    guard
      case .tokens(_, let uid) = try await backend.secondFactor(
        .finalizePhoneSignIn(
          pendingCredential: "PENDING-1", enrollmentID: "E1", verificationID: "SIGNIN-1", code: "654321"))
    else { throw AuthError(.internal, "no tokens") }
    #expect(uid == "uid1")
    try Self.expectGoldens(
      [
        "mfaEnrollment-start-phone", "mfaEnrollment-finalize-phone", "mfaSignIn-start-phone",
        "mfaSignIn-finalize-phone",
      ],
      transport)
  }

  @Test func aTenantsBackendNamesItsTenantOnEveryCallThatTakesOne() async throws {
    let transport = RecordingTransport([
      .status(
        200, #"{"localId":"uid1","email":"ada@example.com","registered":true,\#(FirebaseBackendWireTests.tokens)}"#)
    ])
    var backend = try Self.backend(transport)
    backend.tenantID = "acme-1a2b"
    _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "pw-123456"))
    try Self.expectGoldens(["signInWithPassword-tenant"], transport)
  }

  @Test func anAppCheckTokenGoesWithEveryCallAndIsReusedUntilItExpires() async throws {
    let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    let provider = EmulatorAppCheckTokenProvider(
      secret: "test-secret", projectID: "demo-project", lifetime: .seconds(600)
    ) {
      now.withLock { $0 }
    }
    let transport = RecordingTransport([
      .status(200, #"{"localId":"uid1","registered":true,\#(FirebaseBackendWireTests.tokens)}"#),
      .status(200, #"{"localId":"uid1","registered":true,\#(FirebaseBackendWireTests.tokens)}"#),
      .status(200, #"{"localId":"uid1","registered":true,\#(FirebaseBackendWireTests.tokens)}"#),
    ])
    var backend = try Self.backend(transport)
    backend.appCheck = .init(provider: provider)
    backend.now = { now.withLock { $0 } }
    for _ in 0..<2 {
      _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "pw-123456"))
    }
    #expect(provider.made.tokens == 1, "one token for both calls")
    now.withLock { $0.addTimeInterval(590) }
    _ = try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "pw-123456"))
    #expect(provider.made.tokens == 2, "a token about to expire is replaced")
    let headers = transport.requests.map { $0.header("X-Firebase-AppCheck") }
    #expect(headers[0] != nil && headers[0] == headers[1] && headers[1] != headers[2])
    // The provider signs deterministically at a fixed time: the header is pinned in full.
    try Self.expectGolden("signInWithPassword-appCheck", transport.requests[0])
  }
}

/// A web sheet that records what it was asked to open and answers with `answer`.
final class RecordingSheet: WebAuthenticationSession {
  private let answer: @Sendable (URL) -> URL
  private let log = Locked<[(url: URL, scheme: String)]>([])

  init(answer: @escaping @Sendable (URL) -> URL) { self.answer = answer }

  var opened: [(url: URL, scheme: String)] { log.withLock { $0 } }

  func authenticate(at url: URL, callbackScheme: String) async throws -> URL {
    log.withLock { $0.append((url, callbackScheme)) }
    return answer(url)
  }
}
