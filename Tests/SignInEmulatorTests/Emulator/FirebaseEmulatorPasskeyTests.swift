import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInKit
import SignInKitEmbedded
import Testing

@testable import SignInEmulator

/// The emulator's passkey routes read the authenticator's response in both spellings the
/// preview has: FirebaseAuth's (`id`, `response`, `clientDataJSON`) and the generated
/// reference's (`credentialId`, `authenticator…Response`, `clientDataJson`).
@Suite struct FirebaseEmulatorPasskeyTests {
  static let client = "/identitytoolkit.googleapis.com/v2/accounts"

  func post(_ routes: FirebaseEmulatorRoutes, _ path: String, _ body: [String: Any]) async throws -> [String: Any] {
    let reply = await routes.reply(
      method: "POST", target: "\(Self.client)\(path)?key=fake", headers: ["content-type": "application/json"],
      body: try JSONSerialization.data(withJSONObject: body))
    let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:]
    try #require(reply.status == 200, "\(path): \(object)")
    return object
  }

  @Test func theReferencesSpellingEnrolsAndSignsIn() async throws {
    let backend = try EmbeddedTestBackend.backend()
    let routes = FirebaseEmulatorRoutes(backend: backend)
    let device = try DevelopmentPasskeyAuthenticator(directory: nil)
    let account = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))

    let started = try await post(routes, "/passkeyEnrollment:start", ["idToken": account.tokens.idToken])
    let options = try #require(started["credentialCreationOptions"] as? [String: Any])
    let rp = try #require((options["rp"] as? [String: Any])?["id"] as? String)
    let challenge = try #require(Data(base64Encoded: options["challenge"] as? String ?? ""))
    let user = try #require(Data(base64Encoded: (options["user"] as? [String: Any])?["id"] as? String ?? ""))
    let registration = try await device.register(
      PasskeyRegistrationRequest(
        relyingPartyID: rp, challenge: challenge, userID: user, userName: "ada@example.com", displayName: "Ada"))
    _ = try await post(
      routes, "/passkeyEnrollment:finalize",
      [
        "idToken": account.tokens.idToken, "name": "Laptop",
        "authenticatorRegistrationResponse": [
          "credentialId": registration.credentialID.base64EncodedString(), "credentialType": "public-key",
          "authenticatorAttestationResponse": [
            "clientDataJson": registration.clientDataJSON.base64EncodedString(),
            "attestationObject": registration.attestationObject.base64EncodedString(),
          ],
        ],
      ])

    let signIn = try await post(routes, "/passkeySignIn:start", [:])
    let request = try #require(signIn["credentialRequestOptions"] as? [String: Any])
    let assertion = try await device.authenticate(
      PasskeyAssertionRequest(
        relyingPartyID: try #require(request["rpId"] as? String),
        challenge: try #require(Data(base64Encoded: request["challenge"] as? String ?? ""))))
    let finished = try await post(
      routes, "/passkeySignIn:finalize",
      [
        "authenticatorAuthenticationResponse": [
          "credentialId": assertion.credentialID.base64EncodedString(),
          "authenticatorAssertionResponse": [
            "clientDataJson": assertion.clientDataJSON.base64EncodedString(),
            "authenticatorData": assertion.authenticatorData.base64EncodedString(),
            "signature": assertion.signature.base64EncodedString(),
            "userHandle": assertion.userHandle?.base64EncodedString() ?? "",
          ],
        ]
      ])
    #expect(finished["localId"] as? String == account.localID)
    #expect((finished["idToken"] as? String)?.isEmpty == false)
  }

  /// Review V (high): over HTTP as in process, a passkey that reports presence only is a first
  /// factor: an account with a second factor answers with the pending credential, which
  /// FirebaseBackend reads as the second-factor step; a verifying passkey signs in at once.
  @Test func aPasskeyWithoutUserVerificationAsksForTheSecondFactorOverHTTP() async throws {
    let clock = TestDate()
    let embedded = try EmbeddedTestBackend.backend(clock: clock)
    let backend = try FirebaseBackend.emulator(
      projectID: "demo-project", transport: TableTransport(backend: embedded))
    let device = try DevelopmentPasskeyAuthenticator(directory: nil, now: { clock.now })
    let ada = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    guard case .creationOptions(let options) = try await backend.passkey(.startEnrollment(idToken: ada.tokens.idToken))
    else { throw AuthError(.internal, "no creation options") }
    _ = try await backend.passkey(
      .finishEnrollment(idToken: ada.tokens.idToken, name: "Laptop", registration: try await device.register(options)))
    _ = try await AuthenticatorApp.enrol(
      on: backend, mailbox: embedded, email: "ada@example.com", idToken: ada.tokens.idToken, clock: clock)

    func signIn(_ authenticator: some PasskeyAuthenticator) async throws -> PasskeyResponse {
      guard case .requestOptions(let options) = try await backend.passkey(.startSignIn) else {
        throw AuthError(.internal, "no request options")
      }
      return try await backend.passkey(.finishSignIn(try await authenticator.authenticate(options)))
    }
    let error = await #expect(throws: AuthError.self) { _ = try await signIn(device.presenceOnly) }
    #expect(error?.secondFactor?.firstFactor == .passkey)
    #expect(error?.secondFactor?.factors.count == 1)
    guard case .tokens(_, let uid) = try await signIn(device) else { throw AuthError(.internal, "no tokens") }
    #expect(uid == ada.localID)
  }
}
