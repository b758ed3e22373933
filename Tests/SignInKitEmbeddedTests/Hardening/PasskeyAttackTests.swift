import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInStorage
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// The fifth hardening's passkey findings: a passkey sits in the account's security as a
/// password does. It ends where every first factor ends (the second factor is asked unless the
/// authenticator verified the person), adding one needs a recent sign-in, one caller's ceremony
/// never ends another's, an account holds a bounded number, and a cloned authenticator is caught
/// by two processes at once.
@Suite struct PasskeyAttackTests {
  let clock = TestDate()
  let folder = ScratchDirectory()
  let backend: EmbeddedBackend

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.limits.passkeysPerAccount = 3
    backend = try EmbeddedTestBackend.backend(configuration, directory: folder.url, clock: clock)
  }

  func device(verifiesUser: Bool = true) throws -> DevelopmentPasskeyAuthenticator {
    let clock = clock
    return try DevelopmentPasskeyAuthenticator(directory: nil, verifiesUser: verifiesUser, now: { clock.now })
  }

  func signUp(_ email: String) async throws -> SignInResponse {
    try await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
  }

  func enrol(_ device: some PasskeyAuthenticator, idToken: String, on backend: EmbeddedBackend? = nil) async throws {
    let backend = backend ?? self.backend
    guard case .creationOptions(let options) = try await backend.passkey(.startEnrollment(idToken: idToken)) else {
      throw AuthError(.internal, "no creation options")
    }
    let registration = try await device.register(options)
    _ = try await backend.passkey(.finishEnrollment(idToken: idToken, name: "Laptop", registration: registration))
  }

  func signIn(_ device: some PasskeyAuthenticator, on backend: EmbeddedBackend? = nil) async throws -> String {
    let backend = backend ?? self.backend
    guard case .requestOptions(let options) = try await backend.passkey(.startSignIn) else {
      throw AuthError(.internal, "no request options")
    }
    guard case .tokens(_, let uid) = try await backend.passkey(.finishSignIn(try await device.authenticate(options)))
    else { throw AuthError(.internal, "no tokens") }
    return uid
  }

  /// An account with a passkey from `device` and then a TOTP factor; its uid and the app.
  func accountWithPasskeyAndTOTP(_ device: DevelopmentPasskeyAuthenticator) async throws -> (
    uid: String, app: AuthenticatorApp
  ) {
    let ada = try await signUp("ada@example.com")
    try await enrol(device, idToken: ada.tokens.idToken)
    let app = try await AuthenticatorApp.enrol(
      on: backend, mailbox: backend, email: "ada@example.com", idToken: ada.tokens.idToken, clock: clock)
    return (ada.localID, app)
  }

  // MARK: High: a passkey sign-in skips the second factor

  @Test func aPasskeyWithoutUserVerificationAsksForTheSecondFactor() async throws {
    let device = try device()
    let (uid, app) = try await accountWithPasskeyAndTOTP(device)
    let error = await #expect(throws: AuthError.self) { _ = try await signIn(device.presenceOnly) }
    let challenge = try #require(error?.secondFactor, "\(String(describing: error))")
    #expect(challenge.firstFactor == .passkey)
    #expect(challenge.factors.map(\.enrollmentID) == [app.enrollmentID])
    // The code finishes it, as after a password.
    guard
      case .tokens(_, let signedIn) = try await backend.secondFactor(
        .finalizeTOTPSignIn(
          pendingCredential: challenge.pendingCredential, enrollmentID: app.enrollmentID, code: app.code(at: clock.now))
      )
    else { throw AuthError(.internal, "no tokens") }
    #expect(signedIn == uid)
  }

  @Test func aPasskeyWithUserVerificationCountsAsBothFactors() async throws {
    let device = try device()
    let (uid, _) = try await accountWithPasskeyAndTOTP(device)
    #expect(try await signIn(device) == uid)
  }

  @Test func aPasskeyWithoutUserVerificationAsksForTheSecondFactorOverHTTPShapes() async throws {
    // The wire's shape of the same answer: FirebaseBackend reads a reply with
    // mfaPendingCredential and no tokens as the second-factor step (FirebaseBackendPasskeyWireTests).
    let device = try device()
    _ = try await accountWithPasskeyAndTOTP(device)
    let error = await #expect(throws: AuthError.self) { _ = try await signIn(device.presenceOnly) }
    #expect(error?.code == .secondFactorRequired)
    #expect(error?.message.contains("token") == false)
  }

  // MARK: Medium: adding a passkey needs no recent sign-in

  @Test func addingAPasskeyNeedsARecentSignIn() async throws {
    let ada = try await signUp("ada@example.com")
    clock.advance(5 * 60 + 1)
    let error = await #expect(throws: AuthError.self) { try await enrol(try device(), idToken: ada.tokens.idToken) }
    #expect(error?.serverMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    // The owner signs in elsewhere; the old session (a stolen one), refreshed, still dates from
    // its own sign-in.
    let again = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    let refreshed = try await backend.refresh(RefreshTokenRequest(refreshToken: ada.tokens.refreshToken))
    await #expect(throws: AuthError.self) { try await enrol(try device(), idToken: refreshed.tokens.idToken) }
    let claims = try JSONWebToken(decoding: refreshed.tokens.idToken).claims
    #expect(
      claims["auth_time"]?.number == clock.now.addingTimeInterval(-(5 * 60 + 1)).timeIntervalSince1970.rounded(.down))
    try await enrol(try device(), idToken: again.tokens.idToken)
    #expect(try await backend.lookup(LookupRequest(idToken: again.tokens.idToken)).passkeys.count == 1)
  }

  // MARK: Medium: three anonymous starts cancel everyone's sign-in

  @Test func fourPeopleSigningInAtOnceAllSucceed() async throws {
    var people: [(uid: String, device: DevelopmentPasskeyAuthenticator)] = []
    for index in 1...4 {
      let person = try await signUp("person\(index)@example.com")
      let device = try device()
      try await enrol(device, idToken: person.tokens.idToken)
      people.append((person.localID, device))
    }
    // Everyone starts, then an attacker starts many more, then everyone answers.
    var options: [PasskeyAssertionRequest] = []
    for _ in people {
      guard case .requestOptions(let started) = try await backend.passkey(.startSignIn) else {
        throw AuthError(.internal, "no request options")
      }
      options.append(started)
    }
    for _ in 1...10 { _ = try await backend.passkey(.startSignIn) }
    for (person, started) in zip(people, options) {
      guard
        case .tokens(_, let uid) = try await backend.passkey(
          .finishSignIn(try await person.device.authenticate(started)))
      else { throw AuthError(.internal, "no tokens") }
      #expect(uid == person.uid)
    }
  }

  // MARK: Medium: passkeys without limits

  @Test func anAccountHoldsAtMostItsCapOfPasskeys() async throws {
    let ada = try await signUp("ada@example.com")
    for _ in 1...3 { try await enrol(try device(), idToken: ada.tokens.idToken) }
    let error = await #expect(throws: AuthError.self) { try await enrol(try device(), idToken: ada.tokens.idToken) }
    #expect(error?.firebaseFailure?.code == .tooManyAttemptsTryLater)
    #expect(error?.message.contains("Remove one") == true)
    #expect(try await backend.lookup(LookupRequest(idToken: ada.tokens.idToken)).passkeys.count == 3)
  }

  @Test func transportsAreKeptOnlyAsWebAuthnNamesThem() {
    let sent = ["internal", "hybrid", "internal", String(repeating: "x", count: 100_000), "usb"]
    #expect(PasskeyCeremonies.knownTransports(sent) == ["internal", "hybrid", "usb"])
  }

  @Test func aLongPasskeyNameIsRefused() async throws {
    let ada = try await signUp("ada@example.com")
    guard case .creationOptions(let options) = try await backend.passkey(.startEnrollment(idToken: ada.tokens.idToken))
    else { throw AuthError(.internal, "no creation options") }
    let registration = try await device().register(options)
    let error = await #expect(throws: AuthError.self) {
      _ = try await backend.passkey(
        .finishEnrollment(
          idToken: ada.tokens.idToken, name: String(repeating: "n", count: 129), registration: registration))
    }
    #expect(error?.firebaseFailure?.code == .invalidArgument)
  }

  // MARK: Low: clone detection races across two processes

  @Test func cloneDetectionHoldsAcrossTwoProcesses() async throws {
    let ada = try await signUp("ada@example.com")
    let original = try device()
    try await enrol(original, idToken: ada.tokens.idToken)
    let other = try EmbeddedTestBackend.backend(
      EmbeddedTestBackend.fast, directory: folder.url, clock: clock)
    // Both processes read the counter at 0; the first to write moves it to 1.
    let credential = try #require(try await backend.lookup(LookupRequest(idToken: ada.tokens.idToken)).passkeys.first)
    #expect(try await backend.storedPasskeySignCount(credential.credentialID) == 0)
    #expect(try await other.recordStoredPasskeyUse(credential.credentialID, from: 0, to: 1))
    // The second, answering with the same counter value, is refused.
    #expect(try await !backend.recordStoredPasskeyUse(credential.credentialID, from: 0, to: 1))
    // End to end: the authenticator's next answer (counter 1) is refused, as a clone's.
    let error = await #expect(throws: AuthError.self) { _ = try await signIn(original, on: other) }
    #expect(error?.code == .passkeyRefused)
    #expect(error?.message.contains("may be cloned") == true)
  }

  @Test func theCounterSurvivesAnAccountChange() async throws {
    let ada = try await signUp("ada@example.com")
    let device = try device()
    try await enrol(device, idToken: ada.tokens.idToken)
    _ = try await signIn(device)
    _ = try await signIn(device)
    _ = try await backend.update(UpdateAccountRequest(idToken: ada.tokens.idToken, displayName: "Ada"))
    let credential = try #require(try await backend.lookup(LookupRequest(idToken: ada.tokens.idToken)).passkeys.first)
    #expect(try await backend.storedPasskeySignCount(credential.credentialID) == 2)
  }

  /// Migration 8 moves each passkey's counter from the account record to its row: a folder of
  /// the version before keeps catching a clone whose counter is behind the stored one.
  @Test func theCounterOfAnEarlierVersionsRecordMovesToItsRow() async throws {
    let ada = try await signUp("ada@example.com")
    let device = try device()
    try await enrol(device, idToken: ada.tokens.idToken)
    await backend.close()
    // The folder as the version before left it: the live counter (7) in the record only.
    let file = folder.url.appendingPathComponent(EmbeddedStore.fileName)
    let database = try SQLiteDatabase(.file(file))
    try database.execute(
      """
      UPDATE accounts SET record = json_set(record, '$.passkeys[0].signCount', 7);
      ALTER TABLE passkeys DROP COLUMN last_used_at;
      ALTER TABLE passkeys DROP COLUMN sign_count;
      DROP TABLE texts;
      PRAGMA user_version = 7;
      """)
    database.close()

    let reopened = try EmbeddedTestBackend.backend(EmbeddedTestBackend.fast, directory: folder.url, clock: clock)
    let credential = try #require(try await reopened.lookup(LookupRequest(idToken: ada.tokens.idToken)).passkeys.first)
    #expect(try await reopened.storedPasskeySignCount(credential.credentialID) == 7)
    // The authenticator's next answer says 1: behind the record's 7, refused as a clone's.
    let error = await #expect(throws: AuthError.self) { _ = try await signIn(device, on: reopened) }
    #expect(error?.message.contains("went from 7 to 1") == true, "\(error?.message ?? "")")
  }
}
