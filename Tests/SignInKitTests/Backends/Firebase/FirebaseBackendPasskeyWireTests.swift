import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// The passkey calls of `FirebaseBackend` on Identity Platform's preview: each request against
/// a golden file (`SIGNINKIT_RECORD_GOLDEN=1` rewrites them), and the replies read in the
/// documented spelling and FirebaseAuth's.
@Suite struct FirebaseBackendPasskeyWireTests {
  static let tokens = FirebaseBackendWireTests.tokens

  static let registration = PasskeyRegistration(
    credentialID: Data([0x14, 0x20, 0x68]), clientDataJSON: Data(#"{"type":"webauthn.create"}"#.utf8),
    attestationObject: Data([0xa3, 0x63, 0x66, 0x6d, 0x74]))
  static let assertion = PasskeyAssertion(
    credentialID: Data([0x14, 0x20, 0x68]), clientDataJSON: Data(#"{"type":"webauthn.get"}"#.utf8),
    authenticatorData: Data([0x49, 0x96, 0x0d]), signature: Data([0x30, 0x45, 0x02]), userHandle: Data("uid1".utf8))

  @Test func enrolmentStartsWithTheIDTokenAndReadsTheCreationOptions() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"credentialCreationOptions":{"rp":{"id":"example.com"},"user":{"id":"dWlkMQ==","name":"ada@example.com"},"#
          + #""challenge":"AQID","pubKeyCredParams":[{"alg":"-7","credentialType":"public-key"}],"#
          + #""excludeCredentials":[{"credentialId":"FCBo","credentialType":"public-key"}],"#
          + #""authenticatorSelection":{"userVerification":"required","requireResidentKey":true}}}"#)
    ])
    let backend = try FirebaseBackendWireTests.backend(transport)
    guard case .creationOptions(let options) = try await backend.passkey(.startEnrollment(idToken: "ID-TOKEN")) else {
      Issue.record("no creation options")
      return
    }
    #expect(options.relyingPartyID == "example.com" && options.challenge == Data([1, 2, 3]))
    #expect(options.userID == Data("uid1".utf8) && options.userName == "ada@example.com")
    #expect(options.excludedCredentialIDs == [Data([0x14, 0x20, 0x68])])
    #expect(options.requiresUserVerification && options.algorithms == [-7])
    try FirebaseBackendPhoneWireTests.expectGoldens(["passkeyEnrollment-start"], transport)
  }

  @Test func enrolmentFinishesWithTheAttestationInFirebaseAuthsSpelling() async throws {
    let transport = RecordingTransport([.status(200, #"{"localId":"uid1",\#(Self.tokens)}"#)])
    let backend = try FirebaseBackendWireTests.backend(transport)
    guard
      case .tokens(_, let uid) = try await backend.passkey(
        .finishEnrollment(idToken: "ID-TOKEN", name: "Laptop", registration: Self.registration))
    else {
      Issue.record("no tokens")
      return
    }
    #expect(!uid.isEmpty)
    try FirebaseBackendPhoneWireTests.expectGoldens(["passkeyEnrollment-finalize"], transport)
  }

  @Test func signInStartsAndReadsEitherSpellingOfTheOptions() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"credentialRequestOptions":{"challenge":"AQID","rpId":"example.com"}}"#),
      .status(200, #"{"options":{"challenge":"BAUG","rpId":"example.com","userVerification":"required"}}"#),
    ])
    let backend = try FirebaseBackendWireTests.backend(transport)
    guard case .requestOptions(let documented) = try await backend.passkey(.startSignIn),
      case .requestOptions(let firebaseAuths) = try await backend.passkey(.startSignIn)
    else {
      Issue.record("no request options")
      return
    }
    #expect(documented.challenge == Data([1, 2, 3]) && documented.relyingPartyID == "example.com")
    #expect(firebaseAuths.challenge == Data([4, 5, 6]) && firebaseAuths.requiresUserVerification)
    try FirebaseBackendPhoneWireTests.expectGoldens(["passkeySignIn-start", "passkeySignIn-start"], transport)
  }

  @Test func signInFinishesWithTheAssertion() async throws {
    let transport = RecordingTransport([.status(200, #"{"localId":"uid1",\#(Self.tokens)}"#)])
    let backend = try FirebaseBackendWireTests.backend(transport)
    guard case .tokens(_, let uid) = try await backend.passkey(.finishSignIn(Self.assertion)) else {
      Issue.record("no tokens")
      return
    }
    #expect(uid == "uid1")
    try FirebaseBackendPhoneWireTests.expectGoldens(["passkeySignIn-finalize"], transport)
  }

  @Test func aPasskeyIsRemovedByUpdateAndListedByLookup() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"localId":"uid1"}"#),
      .status(200, #"{"users":[{"localId":"uid1","passkeyInfo":[{"name":"Laptop","credentialId":"FCBo"}]}]}"#),
    ])
    let backend = try FirebaseBackendWireTests.backend(transport)
    var request = UpdateAccountRequest(idToken: "ID-TOKEN")
    request.deletePasskeys = ["FCBo"]
    _ = try await backend.update(request)
    let account = try await backend.lookup(LookupRequest(idToken: "ID-TOKEN"))
    #expect(account.passkeys == [PasskeyInfo(name: "Laptop", credentialID: "FCBo")])
    try FirebaseBackendPhoneWireTests.expectGoldens(["update-deletePasskey", "lookup-passkeys"], transport)
  }

  @Test func aProjectWithoutThePreviewGetsAnErrorNamingIt() async throws {
    let transport = RecordingTransport([
      .status(404, #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}"#)
    ])
    let backend = try FirebaseBackendWireTests.backend(transport)
    let error = await #expect(throws: AuthError.self) { try await backend.passkey(.startSignIn) }
    #expect(error?.code == .operationNotAllowed)
    #expect(error?.message.contains("Identity Platform preview") == true)
  }
}
