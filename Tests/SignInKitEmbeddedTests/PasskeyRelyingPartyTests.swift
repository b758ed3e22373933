import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInKit
import SignInKitEmbedded
import Testing

/// The embedded backend's WebAuthn relying party against the attacks a relying party must
/// refuse, each on its own: every one of them gets `INVALID_AUTHENTICATOR_RESPONSE` (or, for a
/// credential no account has, `PASSKEY_ENROLLMENT_NOT_FOUND`) and changes nothing.
@Suite struct PasskeyRelyingPartyTests {
  let clock = TestDate()
  let backend: EmbeddedBackend

  init() throws {
    backend = try EmbeddedTestBackend.backend(clock: clock)
  }

  func authenticator(
    origin: String? = nil, reportsPresence: Bool = true,
    attestation: DevelopmentPasskeyAuthenticator.Attestation = .none,
    directory: URL? = nil
  ) throws -> DevelopmentPasskeyAuthenticator {
    let clock = clock
    return try DevelopmentPasskeyAuthenticator(
      directory: directory, origin: origin, reportsPresence: reportsPresence, attestation: attestation,
      now: { clock.now })
  }

  /// A new account's ID token and uid.
  func account(_ email: String = "ada@example.com") async throws -> (idToken: String, uid: String) {
    let response = try await backend.signUp(SignUpRequest(email: email, password: "correct horse"))
    return (response.tokens.idToken, response.localID)
  }

  /// Enrols a passkey from `device` on the account of `idToken`.
  func enrol(_ device: DevelopmentPasskeyAuthenticator, for idToken: String) async throws {
    guard case .creationOptions(var options) = try await backend.passkey(.startEnrollment(idToken: idToken)) else {
      Issue.record("no creation options")
      return
    }
    options.userName = "ada@example.com"
    let registration = try await device.register(options)
    _ = try await backend.passkey(.finishEnrollment(idToken: idToken, name: "Laptop", registration: registration))
  }

  /// A sign-in's challenge answered by `device`.
  func assertion(from device: DevelopmentPasskeyAuthenticator) async throws -> PasskeyAssertion {
    guard case .requestOptions(let options) = try await backend.passkey(.startSignIn) else {
      throw AuthError(.internal, "no request options")
    }
    return try await device.authenticate(options)
  }

  func expectRefused(
    _ code: AuthError.Code = .passkeyRefused, saying words: String, _ body: () async throws -> Void
  ) async {
    let error = await #expect(throws: AuthError.self) { try await body() }
    #expect(error?.code == code, "\(String(describing: error))")
    #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
  }

  @Test func aSignInWorksOnceWithEachAnswerAndTheCounterGoesUp() async throws {
    let (idToken, uid) = try await account()
    let device = try authenticator(attestation: .packedSelf)
    try await enrol(device, for: idToken)
    let answer = try await assertion(from: device)
    guard case .tokens(_, let signedIn) = try await backend.passkey(.finishSignIn(answer)) else {
      Issue.record("no tokens")
      return
    }
    #expect(signedIn == uid)
    #expect(await device.passkeys().first?.signCount == 1)
    // Replayed: the challenge was spent by the first answer.
    await expectRefused(saying: "challenge is unknown, used or expired") {
      _ = try await backend.passkey(.finishSignIn(answer))
    }
  }

  @Test func anExpiredChallengeIsRefused() async throws {
    let (idToken, _) = try await account()
    let device = try authenticator()
    try await enrol(device, for: idToken)
    let answer = try await assertion(from: device)
    clock.advance(301)
    await expectRefused(saying: "challenge is unknown, used or expired") {
      _ = try await backend.passkey(.finishSignIn(answer))
    }
  }

  @Test func aResponseSignedForAnotherRelyingPartyIsRefused() async throws {
    let (idToken, _) = try await account()
    let device = try authenticator()
    try await enrol(device, for: idToken)
    var answer = try await assertion(from: device)
    var data = Array(answer.authenticatorData)
    data.replaceSubrange(0..<32, with: Crypto.sha256(Array("evil.example".utf8)))
    answer.authenticatorData = Data(data)
    await expectRefused(saying: "signed for another relying party id than localhost") {
      _ = try await backend.passkey(.finishSignIn(answer))
    }
  }

  @Test func anOriginTheRelyingPartyDoesNotServeIsRefused() async throws {
    let (idToken, _) = try await account()
    let subdomain = try authenticator(origin: "https://app.localhost")
    await expectRefused(saying: "origin https://app.localhost is not one localhost serves") {
      try await enrol(subdomain, for: idToken)
    }
    let user = try await backend.lookup(LookupRequest(idToken: idToken))
    #expect(user.passkeys.isEmpty)
  }

  @Test func aResponseWithoutUserPresenceIsRefused() async throws {
    let (idToken, _) = try await account()
    await expectRefused(saying: "did not report a person present") {
      try await enrol(try authenticator(reportsPresence: false), for: idToken)
    }
  }

  @Test func aClonedAuthenticatorIsCaughtByItsCounter() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clone-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (idToken, _) = try await account()
    let original = try authenticator(directory: folder)
    try await enrol(original, for: idToken)
    // A copy of its keys, taken now, then the original signs in twice.
    let clone = try authenticator(directory: folder)
    for _ in 0..<2 { _ = try await backend.passkey(.finishSignIn(try await assertion(from: original))) }
    await expectRefused(saying: "counter went from 2 to 1") {
      _ = try await backend.passkey(.finishSignIn(try await assertion(from: clone)))
    }
  }

  @Test func aPasskeyCannotSignInToAnotherAccountOrJoinASecond() async throws {
    let (ada, _) = try await account()
    let (grace, graceUID) = try await account("grace@example.com")
    let device = try authenticator()
    try await enrol(device, for: ada)
    var answer = try await assertion(from: device)
    answer.userHandle = Data(graceUID.utf8)
    await expectRefused(saying: "user handle names another account") {
      _ = try await backend.passkey(.finishSignIn(answer))
    }
    // One key, one credential id, registered for Ada and then, on a fresh challenge, for Grace.
    let key = try P256PrivateKey.generate()
    let id: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
    _ = try await backend.passkey(
      .finishEnrollment(idToken: ada, name: "Key", registration: try await handmadeRegistration(key, id, for: ada)))
    let again = try await handmadeRegistration(key, id, for: grace)
    await expectRefused(saying: "enrolled already") {
      _ = try await backend.passkey(.finishEnrollment(idToken: grace, name: "Key", registration: again))
    }
  }

  /// A registration of `key` under credential `id`, answering a new enrolment of `idToken`'s
  /// account, made by hand as any authenticator could.
  func handmadeRegistration(_ key: P256PrivateKey, _ id: [UInt8], for idToken: String) async throws
    -> PasskeyRegistration
  {
    guard case .creationOptions(let options) = try await backend.passkey(.startEnrollment(idToken: idToken)) else {
      throw AuthError(.internal, "no creation options")
    }
    let client = CollectedClientData(
      type: "webauthn.create", challenge: Array(options.challenge), origin: "http://localhost")
    let data = try AuthenticatorData(
      rpIDHash: Crypto.sha256(Array("localhost".utf8)), flags: [.userPresent], signCount: 0,
      credential: (aaguid: [UInt8](repeating: 0, count: 16), id: id, key: .es256(try key.publicKey)))
    let object = CBOR.map([
      .init(.text("fmt"), .text("none")), .init(.text("attStmt"), .map([])),
      .init(.text("authData"), .bytes(data.bytes)),
    ])
    return PasskeyRegistration(
      credentialID: Data(id), clientDataJSON: Data(client.json), attestationObject: Data(object.encoded))
  }

  @Test(arguments: [
    ("not CBOR", [UInt8]([0xff, 0x00])),
    ("a map without authData", CBOR.map([.init(.text("fmt"), .text("none"))]).encoded),
    (
      "an EC2 key off the curve",
      CBOR.map([
        .init(.text("fmt"), .text("none")), .init(.text("attStmt"), .map([])),
        .init(.text("authData"), .bytes(PasskeyRelyingPartyTests.authData(key: PasskeyRelyingPartyTests.offCurveKey))),
      ]).encoded
    ),
    (
      "an unknown attestation format",
      CBOR.map([
        .init(.text("fmt"), .text("tpm")), .init(.text("attStmt"), .map([])),
        .init(.text("authData"), .bytes(PasskeyRelyingPartyTests.authData(key: PasskeyRelyingPartyTests.goodKey))),
      ]).encoded
    ),
  ])
  func aMalformedAttestationIsRefusedWithWhatIsWrong(name: String, attestation: [UInt8]) async throws {
    let (idToken, _) = try await account()
    guard case .creationOptions(let options) = try await backend.passkey(.startEnrollment(idToken: idToken)) else {
      return
    }
    let client = CollectedClientData(
      type: "webauthn.create", challenge: Array(options.challenge), origin: "http://localhost")
    let registration = PasskeyRegistration(
      credentialID: Data([1, 2, 3, 4]), clientDataJSON: Data(client.json), attestationObject: Data(attestation))
    let error = await #expect(throws: AuthError.self) {
      _ = try await backend.passkey(.finishEnrollment(idToken: idToken, name: name, registration: registration))
    }
    #expect(error?.code == .passkeyRefused, "\(name)")
  }

  // MARK: - Hand-made authenticator data

  static let goodKey: CBOR = {
    let key = try! P256PrivateKey.generate()
    return try! COSEKey.es256(try! key.publicKey).cbor
  }()

  static let offCurveKey = CBOR.map([
    .init(.int(1), .int(2)), .init(.int(3), .int(-7)), .init(.int(-1), .int(1)),
    .init(.int(-2), .bytes([UInt8](repeating: 1, count: 32))),
    .init(.int(-3), .bytes([UInt8](repeating: 2, count: 32))),
  ])

  static func authData(key: CBOR) -> [UInt8] {
    Crypto.sha256(Array("localhost".utf8)) + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0, 4]
      + [1, 2, 3, 4] + key.encoded
  }
}
