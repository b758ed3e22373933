import Foundation
import SignInConcurrency
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInKitTesting
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

@Suite struct EmbeddedBackendTests {
  static func code(_ error: (any Error)?) -> String? {
    (error as? AuthError)?.serverMessage?.components(separatedBy: " :").first
  }

  // MARK: Error codes

  @Test func signUpErrorsMatchFirebase() async throws {
    let backend = try EmbeddedTestBackend.backend()
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let cases: [(SignUpRequest, String, AuthError.Code)] = [
      (SignUpRequest(email: "ADA@example.com", password: "secret1"), "EMAIL_EXISTS", .emailAlreadyInUse),
      (SignUpRequest(email: "bob@example.com", password: "12345"), "WEAK_PASSWORD", .weakPassword),
      (SignUpRequest(email: "not-an-email", password: "secret1"), "INVALID_EMAIL", .invalidEmail),
      (SignUpRequest(email: "", password: "secret1"), "MISSING_EMAIL", .invalidEmail),
    ]
    for (request, server, code) in cases {
      let error = await #expect(throws: AuthError.self) { try await backend.signUp(request) }
      #expect(Self.code(error) == server)
      #expect(error?.code == code)
    }
  }

  @Test func passwordSignInErrorsWithAndWithoutEnumerationProtection() async throws {
    for protection in [false, true] {
      var configuration = EmbeddedTestBackend.fast
      configuration.emailEnumerationProtection = protection
      let backend = try EmbeddedTestBackend.backend(configuration)
      _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
      let unknown = await #expect(throws: AuthError.self) {
        try await backend.signInWithPassword(.init(email: "nobody@example.com", password: "secret1"))
      }
      let wrong = await #expect(throws: AuthError.self) {
        try await backend.signInWithPassword(.init(email: "ada@example.com", password: "wrong!"))
      }
      if protection {
        #expect(Self.code(unknown) == "INVALID_LOGIN_CREDENTIALS")
        #expect(Self.code(wrong) == "INVALID_LOGIN_CREDENTIALS")
      } else {
        #expect(Self.code(unknown) == "EMAIL_NOT_FOUND")
        #expect(Self.code(wrong) == "INVALID_PASSWORD")
      }
    }
  }

  @Test func repeatedWrongPasswordsLockTheAccountForTheWindow() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    for _ in 0..<5 {
      _ = try? await backend.signInWithPassword(.init(email: "ada@example.com", password: "wrong!"))
    }
    let locked = await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    #expect(Self.code(locked) == "TOO_MANY_ATTEMPTS_TRY_LATER")
    clock.advance(15 * 60 + 1)
    _ = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
  }

  @Test func repeatedFailuresThrottleWithBackoffButNeverLockOutTheCorrectPassword() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    for _ in 0..<5 { _ = try? await backend.signInWithPassword(.init(email: "ada@example.com", password: "wrong!")) }
    clock.advance(29)
    let early = await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    #expect(Self.code(early) == "TOO_MANY_ATTEMPTS_TRY_LATER")
    #expect(early?.message.contains("Try again in 1 seconds") == true)
    // After the 30 s wait the owner's correct password works: throttled, not locked out.
    clock.advance(1)
    _ = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))

    // Each failure past the limit doubles the wait: 30 s, then 60 s.
    for _ in 0..<5 { _ = try? await backend.signInWithPassword(.init(email: "ada@example.com", password: "wrong!")) }
    clock.advance(30)
    _ = try? await backend.signInWithPassword(.init(email: "ada@example.com", password: "wrong!"))
    clock.advance(59)
    await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    clock.advance(1)
    _ = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
  }

  @Test func withEnumerationProtectionAnUnknownEmailLooksAndCostsLikeAWrongPassword() async throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.emailEnumerationProtection = true
    configuration.scrypt = ScryptParameters(n: 1 << 14, r: 8, p: 1)
    let backend = try EmbeddedTestBackend.backend(configuration)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    func attempt(_ email: String) async -> (AuthError?, Duration) {
      let clock = ContinuousClock()
      let start = clock.now
      let error = await #expect(throws: AuthError.self) {
        try await backend.signInWithPassword(.init(email: email, password: "wrong!"))
      }
      return (error, clock.now - start)
    }
    var known: [Duration] = []
    var unknown: [Duration] = []
    for _ in 0..<5 {
      let (wrong, wrongTime) = await attempt("ada@example.com")
      let (missing, missingTime) = await attempt("nobody@example.com")
      #expect(wrong?.code == missing?.code)
      #expect(wrong?.message == missing?.message)
      #expect(Self.code(missing) == "INVALID_LOGIN_CREDENTIALS")
      known.append(wrongTime)
      unknown.append(missingTime)
    }
    // Both pay for one scrypt at N=2^14 (tens of milliseconds); without the dummy hash an
    // unknown email answered in microseconds. Compared by order of magnitude, not by timing.
    #expect(unknown.min()! * 10 > known.min()!)
    // And the throttle answers alike: five failures of either start it.
    let (knownThrottled, _) = await attempt("ada@example.com")
    let (unknownThrottled, _) = await attempt("nobody@example.com")
    #expect(Self.code(knownThrottled) == "TOO_MANY_ATTEMPTS_TRY_LATER")
    #expect(Self.code(unknownThrottled) == "TOO_MANY_ATTEMPTS_TRY_LATER")
  }

  @Test func aWeakerHashIsMadeAgainAtTheConfiguredCostOnTheNextSignIn() async throws {
    let directory = ScratchDirectory()
    do {
      let backend = try EmbeddedTestBackend.backend(directory: directory.url)  // N=2^10
      _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
      await backend.close()
    }
    func storedHash() throws -> PasswordHash? {
      try EmbeddedStore.opened(in: directory.url).account(email: "ada@example.com")?.password
    }
    #expect(try storedHash()?.n == 1 << 10)
    var raised = EmbeddedTestBackend.fast
    raised.scrypt = ScryptParameters(n: 1 << 12, r: 8, p: 1)
    do {
      let backend = try EmbeddedTestBackend.backend(raised, directory: directory.url)
      _ = try? await backend.signInWithPassword(.init(email: "ada@example.com", password: "wrong!"))
      #expect(try storedHash()?.n == 1 << 10, "a failed sign-in changes nothing")
      _ = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
      #expect(try storedHash()?.n == 1 << 12)
      await backend.close()
    }
    // Lowering the cost again never weakens a stored hash.
    let lowered = try EmbeddedTestBackend.backend(directory: directory.url)
    _ = try await lowered.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    #expect(try storedHash()?.n == 1 << 12)
  }

  @Test func theDefaultIsFirebasesCostAndThePresetMeetsOWASP() {
    #expect(EmbeddedBackend.Configuration().scrypt == ScryptParameters(n: 16384, r: 8, p: 1))
    #expect(ScryptParameters.owasp == ScryptParameters(n: 131_072, r: 8, p: 1))
  }

  @Test func disabledAccountCannotSignInOrRefresh() async throws {
    let backend = try EmbeddedTestBackend.backend()
    let user = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    try await backend.setDisabled(true, uid: user.localID)
    let signIn = await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    #expect(Self.code(signIn) == "USER_DISABLED")
    let refresh = await #expect(throws: AuthError.self) {
      try await backend.refresh(.init(refreshToken: user.tokens.refreshToken))
    }
    #expect(Self.code(refresh) == "USER_DISABLED")
  }

  @Test func revokedOrUnknownTokensAreRefusedWithTheirCodes() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    let user = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let unknown = await #expect(throws: AuthError.self) {
      try await backend.refresh(.init(refreshToken: "made-up"))
    }
    #expect(Self.code(unknown) == "INVALID_REFRESH_TOKEN")
    let invalid = await #expect(throws: AuthError.self) {
      try await backend.lookup(.init(idToken: "a.b.c"))
    }
    #expect(Self.code(invalid) == "INVALID_ID_TOKEN")
    clock.advance(1)
    try await backend.revokeAllSessions(uid: user.localID)
    let revoked = await #expect(throws: AuthError.self) {
      try await backend.lookup(.init(idToken: user.tokens.idToken))
    }
    #expect(Self.code(revoked) == "TOKEN_EXPIRED")
    let revokedRefresh = await #expect(throws: AuthError.self) {
      try await backend.refresh(.init(refreshToken: user.tokens.refreshToken))
    }
    #expect(Self.code(revokedRefresh) == "INVALID_REFRESH_TOKEN")
  }

  @Test func expiredIDTokenIsRefusedAndRefreshGivesANewOne() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    let user = try await backend.signUp(SignUpRequest())
    clock.advance(3601)
    let expired = await #expect(throws: AuthError.self) {
      try await backend.lookup(.init(idToken: user.tokens.idToken))
    }
    #expect(Self.code(expired) == "TOKEN_EXPIRED")
    let refreshed = try await backend.refresh(.init(refreshToken: user.tokens.refreshToken))
    #expect(try await backend.lookup(.init(idToken: refreshed.tokens.idToken)).localID == user.localID)
  }

  @Test func passwordChangeRevokesOtherSessions() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    let first = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    clock.advance(1)
    let changed = try await backend.update(.init(idToken: first.tokens.idToken, password: "secret2"))
    let tokens = try #require(changed.tokens)
    #expect(try await backend.lookup(.init(idToken: tokens.idToken)).localID == first.localID)
    await #expect(throws: AuthError.self) {
      try await backend.refresh(.init(refreshToken: first.tokens.refreshToken))
    }
  }

  @Test func deletedAccountIsGone() async throws {
    let backend = try EmbeddedTestBackend.backend()
    let user = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    try await backend.delete(.init(idToken: user.tokens.idToken))
    let refresh = await #expect(throws: AuthError.self) {
      try await backend.refresh(.init(refreshToken: user.tokens.refreshToken))
    }
    #expect(Self.code(refresh) == "INVALID_REFRESH_TOKEN")
    let signIn = await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    #expect(Self.code(signIn) == "EMAIL_NOT_FOUND")
  }

  // MARK: Action codes and the mailbox

  @Test func resetCodesGoToTheMailboxWorkOnceAndExpire() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    _ = try await backend.sendOobCode(.passwordReset(email: "ada@example.com"))
    let code = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    _ = try await backend.resetPassword(.init(oobCode: code, newPassword: "secret2"))
    _ = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret2"))
    let reused = await #expect(throws: AuthError.self) {
      try await backend.resetPassword(.init(oobCode: code, newPassword: "secret3"))
    }
    #expect(Self.code(reused) == "INVALID_OOB_CODE")
    _ = try await backend.sendOobCode(.passwordReset(email: "ada@example.com"))
    let late = try #require(await backend.mailbox(for: "ada@example.com").last?.code)
    clock.advance(3601)
    let expired = await #expect(throws: AuthError.self) {
      try await backend.resetPassword(.init(oobCode: late, newPassword: "secret3"))
    }
    #expect(Self.code(expired) == "EXPIRED_OOB_CODE")
  }

  @Test func verificationCodeMarksTheEmailVerified() async throws {
    let backend = try EmbeddedTestBackend.backend()
    let user = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    _ = try await backend.sendOobCode(.verifyEmail(idToken: user.tokens.idToken))
    let message = try #require(await backend.mailbox(for: "ada@example.com").last)
    #expect(message.kind == "VERIFY_EMAIL")
    let updated = try await backend.update(.init(oobCode: message.code))
    #expect(updated.account.emailVerified)
  }

  @Test func anonymousAccountLinksEmailKeepingItsUID() async throws {
    let backend = try EmbeddedTestBackend.backend()
    let anonymous = try await backend.signUp(SignUpRequest())
    #expect(anonymous.email == nil)
    let linked = try await backend.signUp(
      SignUpRequest(email: "ada@example.com", password: "secret1", idToken: anonymous.tokens.idToken))
    #expect(linked.localID == anonymous.localID)
    let signIn = try await backend.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    #expect(signIn.localID == anonymous.localID)
  }

  // MARK: Tokens

  @Test func idTokensVerifyWithThePublishedKeysAndCarryFirebaseClaims() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    let user = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let keys = try JSONWebKeySet(json: try await backend.jwks)
    let verifier = JWTVerifier(
      issuer: "https://securetoken.google.com/signinkit-local", audiences: ["signinkit-local"],
      now: { clock.now })
    let jwt = try verifier.verify(user.tokens.idToken, keys: keys)
    #expect(jwt.keyID == backend.keyID)
    #expect(jwt.subject == user.localID)
    #expect(jwt.claims["user_id"]?.string == user.localID)
    #expect(jwt.claims["email"]?.string == "ada@example.com")
    #expect(jwt.claims["email_verified"]?.bool == false)
    #expect(jwt.claims["auth_time"]?.number != nil)
    let firebase = try #require(jwt.claims["firebase"]?.object)
    #expect(firebase["sign_in_provider"]?.string == "password")
    #expect(firebase["identities"]?.object?["email"] == .array([.string("ada@example.com")]))
    #expect(jwt.expiresAt == jwt.issuedAt?.addingTimeInterval(3600))
    // The same key, published as a certificate, verifies the token too.
    let certificate = try #require(try await backend.publicCertificates[backend.keyID])
    #expect(certificate.hasPrefix("-----BEGIN CERTIFICATE-----"))
    let certified = try SelfSignedCertificate.publicKey(inCertificate: certificate)
    _ = try verifier.verify(
      user.tokens.idToken, keys: JSONWebKeySet(keys: [.init(kid: backend.keyID, publicKey: certified)]))
  }

  // MARK: Disk

  @Test func accountsAndKeysSurviveARestart() async throws {
    let directory = ScratchDirectory()
    let clock = TestDate()
    var backend: EmbeddedBackend? = try EmbeddedTestBackend.backend(directory: directory.url, clock: clock)
    let user = try await backend!.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    await backend!.close()  // releases the directory lock
    backend = nil
    let reopened = try EmbeddedTestBackend.backend(directory: directory.url, clock: clock)
    #expect(try await reopened.lookup(.init(idToken: user.tokens.idToken)).localID == user.localID)
    _ = try await reopened.refresh(.init(refreshToken: user.tokens.refreshToken))
    _ = try await reopened.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
  }

  @Test func twoBackendsOnOneDirectorySeeWhatTheOtherCommits() async throws {
    let directory = ScratchDirectory()
    let first = try EmbeddedTestBackend.backend(directory: directory.url)
    let second = try EmbeddedTestBackend.backend(directory: directory.url)
    let ada = try await first.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    // The second signs in an account the first made, and the first sees one the second made.
    _ = try await second.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    let grace = try await second.signUp(SignUpRequest(email: "grace@example.com", password: "secret2"))
    #expect(await first.uid(forEmail: "grace@example.com") == grace.localID)
    let taken = await #expect(throws: AuthError.self) {
      try await first.signUp(SignUpRequest(email: "grace@example.com", password: "secret3"))
    }
    #expect(taken?.code == .emailAlreadyInUse)
    // A deletion in one ends the session in the other.
    try await first.deleteUser(uid: ada.localID)
    let gone = await #expect(throws: AuthError.self) {
      try await second.refresh(.init(refreshToken: ada.tokens.refreshToken))
    }
    #expect(gone?.code == .invalidRefreshToken)
    await first.close()
    // One closing does not affect the other.
    _ = try await second.signInWithPassword(.init(email: "grace@example.com", password: "secret2"))
  }

  @Test func anAccountReadBeforeAnotherBackendChangesItIsReadAgainAfter() async throws {
    let directory = ScratchDirectory()
    let first = try EmbeddedTestBackend.backend(directory: directory.url)
    let second = try EmbeddedTestBackend.backend(directory: directory.url)
    let ada = try await first.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    // The first reads (and keeps the decoding of) the account; the second changes it twice.
    #expect(try await first.lookup(LookupRequest(idToken: ada.tokens.idToken)).displayName == nil)
    _ = try await second.update(UpdateAccountRequest(idToken: ada.tokens.idToken, displayName: "Ada"))
    #expect(try await first.lookup(LookupRequest(idToken: ada.tokens.idToken)).displayName == "Ada")
    try await second.setDisabled(true, uid: ada.localID)
    let disabled = await #expect(throws: AuthError.self) {
      try await first.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    #expect(disabled?.code == .userDisabled)
  }

  @Test func aSecondFactorStartedByOneBackendFinishesOnAnotherOnTheSameDirectory() async throws {
    let directory = ScratchDirectory()
    let clock = TestDate()
    let first = try EmbeddedTestBackend.backend(directory: directory.url, clock: clock)
    let second = try EmbeddedTestBackend.backend(directory: directory.url, clock: clock)
    let session = try await first.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    _ = try await first.sendOobCode(.verifyEmail(idToken: session.tokens.idToken), settings: nil)
    let code = try #require(await second.mailbox(for: "ada@example.com").last?.code)
    _ = try await second.update(UpdateAccountRequest(oobCode: code))
    // The enrollment starts on one and is finished on the other.
    guard case .secret(let totp) = try await first.secondFactor(.startTOTPEnrollment(idToken: session.tokens.idToken))
    else { throw AuthError(.internal, "no secret") }
    let secret = try #require(Base32.decode(totp.secretKey))
    _ = try await second.secondFactor(
      .finalizeTOTPEnrollment(
        idToken: session.tokens.idToken, sessionInfo: totp.sessionInfo,
        code: OneTimePassword.totp(secret: secret, at: clock.now), displayName: nil))
    clock.advance(30)
    // So is a sign-in waiting for its second factor.
    let challenge = await #expect(throws: AuthError.self) {
      try await second.signInWithPassword(.init(email: "ada@example.com", password: "secret1"))
    }
    let pending = try #require(challenge?.secondFactor)
    let factor = try #require(pending.factors.first?.enrollmentID)
    let finished = try await first.secondFactor(
      .finalizeTOTPSignIn(
        pendingCredential: pending.pendingCredential, enrollmentID: factor,
        code: OneTimePassword.totp(secret: secret, at: clock.now)))
    guard case .tokens(_, let uid) = finished else { throw AuthError(.internal, "no tokens") }
    #expect(uid == session.localID)
  }

  @Test func aFolderLockedByAnotherWriterPastTheTimeoutIsAStorageErrorAndNothingIsWritten() async throws {
    let directory = ScratchDirectory()
    var configuration = EmbeddedTestBackend.fast
    configuration.busyTimeout = .milliseconds(50)
    let backend = try EmbeddedTestBackend.backend(configuration, directory: directory.url)
    let ada = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    // Another process holds the write lock for as long as this test wants.
    let other = try EmbeddedStore.opened(in: directory.url)
    try other.connection.use { try $0.execute("BEGIN IMMEDIATE") }
    let error = await #expect(throws: AuthError.self) {
      try await backend.signUp(SignUpRequest(email: "grace@example.com", password: "secret2"))
    }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("locked") == true)
    #expect(error?.message.contains("nothing was written") == true)
    // Reading does not wait for a writer.
    #expect(try await backend.lookup(LookupRequest(idToken: ada.tokens.idToken)).localID == ada.localID)
    try other.connection.use { try $0.execute("ROLLBACK") }
    #expect(await backend.uid(forEmail: "grace@example.com") == nil)
    _ = try await backend.signUp(SignUpRequest(email: "grace@example.com", password: "secret2"))
  }

  @Test func secretsAreNeverStoredInClear() async throws {
    let directory = ScratchDirectory()
    let backend = try EmbeddedTestBackend.backend(directory: directory.url)
    let user = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "hunter2-secret"))
    _ = try await backend.sendOobCode(.passwordReset(email: "ada@example.com"))
    // Everything SQLite wrote: the database and its write-ahead log.
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      .filter { $0.hasPrefix(EmbeddedStore.fileName) }
    #expect(files.contains(EmbeddedStore.fileName))
    let stored = try files.map {
      String(decoding: try Data(contentsOf: directory.url.appendingPathComponent($0)), as: UTF8.self)
    }.joined()
    #expect(stored.contains("ada@example.com"))
    #expect(!stored.contains("hunter2-secret"))
    #expect(!stored.contains(user.tokens.refreshToken))
    let attributes = try FileManager.default.attributesOfItem(
      atPath: directory.url.appendingPathComponent("signing-key.pem").path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func aDatabaseThatCannotBeReadIsAStorageErrorAndSignUpNeverReplacesIt() async throws {
    let directory = ScratchDirectory()
    do {
      let backend = try EmbeddedTestBackend.backend(directory: directory.url)
      _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "hunter2-secret"))
      await backend.close()
    }
    let file = directory.url.appendingPathComponent(EmbeddedStore.fileName)
    let accounts = try Data(contentsOf: file)
    // The file is there but cannot be read (as for another user's file, or EIO): here a folder
    // moved into its place, which root cannot read either.
    let aside = directory.url.appendingPathComponent("accounts.sqlite.aside")
    try FileManager.default.moveItem(at: file, to: aside)
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
    let error = #expect(throws: AuthError.self) { try EmbeddedTestBackend.backend(directory: directory.url) }
    #expect(error?.code == .storage)
    #expect(error?.message.contains(file.path) == true)
    #expect(error?.message.contains("nothing was changed") == true)
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && isFolder.boolValue)
    // Put back, every account is still there.
    try FileManager.default.removeItem(at: file)
    try FileManager.default.moveItem(at: aside, to: file)
    #expect(try Data(contentsOf: file) == accounts)
    let backend = try EmbeddedTestBackend.backend(directory: directory.url)
    _ = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "hunter2-secret"))
  }

  /// `signin`'s backend: nothing is opened until a call needs the accounts; a database that
  /// cannot be read then fails that call with the words the eager open gives, and once it is
  /// put back the next call opens it.
  @Test func aBackendThatOpensOnFirstUseFailsTheCallThatNeedsAnUnreadableDatabaseAndTriesAgain() async throws {
    let directory = ScratchDirectory()
    let file = directory.url.appendingPathComponent(EmbeddedStore.fileName)
    let untouched = try EmbeddedBackend(
      directory: directory.url, configuration: EmbeddedTestBackend.fast, opensDatabaseOnFirstUse: { _ in })
    #expect(!FileManager.default.fileExists(atPath: file.path))
    _ = try await untouched.signUp(SignUpRequest(email: "ada@example.com", password: "hunter2-secret"))
    await untouched.close()
    let aside = directory.url.appendingPathComponent("accounts.sqlite.aside")
    try FileManager.default.moveItem(at: file, to: aside)
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

    let backend = try EmbeddedBackend(
      directory: directory.url, configuration: EmbeddedTestBackend.fast, opensDatabaseOnFirstUse: { _ in })
    let error = await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(PasswordSignInRequest(email: "ada@example.com", password: "hunter2-secret"))
    }
    #expect(error?.code == .storage)
    #expect(error?.message.contains(file.path) == true)
    #expect(error?.message.contains("nothing was changed") == true)
    try FileManager.default.removeItem(at: file)
    try FileManager.default.moveItem(at: aside, to: file)
    _ = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "hunter2-secret"))
  }

  @Test(arguments: [[0xFF, 0xFE, 0x00], Array("-----BEGIN PRIVATE KEY-----\nnot a key\n".utf8)] as [[UInt8]])
  func aSigningKeyThatCannotBeDecodedIsReportedAndNeverReplaced(_ bytes: [UInt8]) throws {
    let directory = ScratchDirectory()
    try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    let file = directory.url.appendingPathComponent("signing-key.pem")
    try Data(bytes).write(to: file)
    let error = #expect(throws: AuthError.self) { try EmbeddedTestBackend.backend(directory: directory.url) }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("signing-key.pem") == true)
    #expect(try Data(contentsOf: file) == Data(bytes))
  }

  @Test func aSigningKeyThatCannotBeReadIsReportedAndNeverReplaced() throws {
    let directory = ScratchDirectory()
    let file = directory.url.appendingPathComponent("signing-key.pem")
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
    let error = #expect(throws: AuthError.self) { try EmbeddedTestBackend.backend(directory: directory.url) }
    #expect(error?.code == .storage)
    #expect(error?.message.contains("could not be read") == true)
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && isFolder.boolValue)
  }

  @Test func aWallClockThatStepsBackDoesNotMintATokenThatIsAlreadyRevoked() async throws {
    // The account is created just past a second boundary; the clock then steps back 0.4 ms.
    let calls = Locked(0)
    let backend = try EmbeddedBackend(directory: nil, configuration: EmbeddedTestBackend.fast) {
      let call = calls.withLock { count in
        defer { count += 1 }
        return count
      }
      return Date(timeIntervalSince1970: call < 3 ? 1_800_000_000.0003 : 1_799_999_999.9999)
    }
    let user = try await backend.signUp(SignUpRequest())
    #expect(try await backend.lookup(LookupRequest(idToken: user.tokens.idToken)).localID == user.localID)
  }

  // MARK: Account security

  @Test func passwordEmailChangesAndDeletionNeedASignInFromTheLastFiveMinutes() async throws {
    let clock = TestDate()
    let backend = try EmbeddedTestBackend.backend(clock: clock)
    let signUp = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    clock.advance(4 * 60)
    let changed = try await backend.update(UpdateAccountRequest(idToken: signUp.tokens.idToken, password: "secret2"))
    let tokens = try #require(changed.tokens)

    clock.advance(6 * 60)
    // A refreshed token keeps the old auth_time: still too old.
    let refreshed = try await backend.refresh(RefreshTokenRequest(refreshToken: tokens.refreshToken))
    for change in [
      UpdateAccountRequest(idToken: refreshed.tokens.idToken, password: "secret3"),
      UpdateAccountRequest(idToken: refreshed.tokens.idToken, email: "ada2@example.com"),
    ] {
      let error = await #expect(throws: AuthError.self) { _ = try await backend.update(change) }
      #expect(error?.code == .requiresRecentLogin)
      #expect(Self.code(error) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    }
    let deletion = await #expect(throws: AuthError.self) {
      try await backend.delete(DeleteAccountRequest(idToken: refreshed.tokens.idToken))
    }
    #expect(Self.code(deletion) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    // A profile change needs no recent sign-in.
    _ = try await backend.update(UpdateAccountRequest(idToken: refreshed.tokens.idToken, displayName: "Ada"))

    // Signing in again makes it recent.
    let again = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "secret2"))
    try await backend.delete(DeleteAccountRequest(idToken: again.tokens.idToken))
  }

  @Test func aCopyOfASessionTakenBeforeSignOutCannotRefreshAfterIt() async throws {
    let directory = ScratchDirectory()
    let backend = try EmbeddedTestBackend.backend()
    let manual = AuthConfiguration(refreshesAutomatically: false)
    let store = FileSessionStore(directory: directory.url)
    let auth = Auth(backend: backend, store: store, configuration: manual)
    _ = try await auth.signUp(email: "ada@example.com", password: "secret1")
    let copy = try #require(try store.load())
    try await auth.signOut()

    let error = await #expect(throws: AuthError.self) {
      _ = try await backend.refresh(RefreshTokenRequest(refreshToken: copy.refreshToken))
    }
    #expect(error?.code == .invalidRefreshToken)
    // Put back by hand, the copy signs in only until its ID token needs refreshing.
    let thief = Auth(backend: backend, store: InMemorySessionStore(copy), configuration: manual)
    _ = try await thief.restorePreviousSignIn()
    await #expect(throws: AuthError.self) { _ = try await thief.idToken(forceRefresh: true) }
    #expect(thief.currentUser == nil)
    for auth in [auth, thief] { await auth.shutdown() }
  }
}
