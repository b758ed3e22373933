import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// The emulator's client calls, through the routes (no socket), with the emulator's rules
/// (unsigned IdP tokens), as the Firebase SDKs send them.
@Suite struct FirebaseEmulatorRoutesTests {
  let routes: FirebaseEmulatorRoutes

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(configuration))
  }

  func post(_ target: String, _ body: [String: Any]) async throws -> (status: Int, json: [String: Any]) {
    let data = try JSONSerialization.data(withJSONObject: body)
    let reply = await routes.reply(
      method: "POST", target: target, headers: ["content-type": "application/json"], body: data)
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  /// An Apple user signed in with the emulator's JSON form of an IdP token; its ID token.
  func appleUser() async throws -> String {
    let nonce = AppleProvider.hashedNonce("raw-1")
    let postBody = ProviderCredential(
      providerID: .apple, idToken: #"{"sub":"apple-001","email":"tim@example.com","nonce":"\#(nonce)"}"#,
      rawNonce: "raw-1"
    ).postBody
    let reply = try await post(
      "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key",
      ["postBody": postBody, "requestUri": "http://localhost", "returnSecureToken": true])
    let idToken = reply.json["idToken"] as? String
    return try #require(idToken, "\(reply.json)")
  }

  @Test func aClientCallWithoutAnAPIKeyIsRefusedAsFirebaseRefusesIt() async throws {
    let body = try JSONSerialization.data(withJSONObject: ["returnSecureToken": true])
    for target in [
      "/identitytoolkit.googleapis.com/v1/accounts:signUp", "/securetoken.googleapis.com/v1/token",
      "/identitytoolkit.googleapis.com/v2/accounts:revokeToken",
      "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=",
    ] {
      let reply = await routes.reply(
        method: "POST", target: target, headers: ["content-type": "application/json"], body: body)
      let error = (try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?["error"] as? [String: Any]
      #expect(reply.status == 403, "\(target)")
      #expect(error?["message"] as? String == "The request is missing a valid API key.")
      #expect(error?["status"] as? String == "PERMISSION_DENIED")
    }
    // The key may come as a header instead, as the iOS SDK sends it.
    let viaHeader = await routes.reply(
      method: "POST", target: "/identitytoolkit.googleapis.com/v1/accounts:signUp",
      headers: ["content-type": "application/json", "x-goog-api-key": "any-key"], body: body)
    #expect(viaHeader.status == 200)
  }

  static let revokeToken = "/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=fake-api-key"

  @Test(arguments: ["CODE", "3"])
  func revokeTokenTakesTheTokenTypeByNameOrAsTheIOSSDKSendsIt(_ tokenType: String) async throws {
    let idToken = try await appleUser()
    let body: [String: Any] = [
      "providerId": "apple.com", "tokenType": tokenType, "token": "code-1", "idToken": idToken,
    ]
    let first = try await post(Self.revokeToken, body)
    #expect(first.status == 200)
    #expect(first.json.isEmpty)
    let again = try await post(Self.revokeToken, body)
    #expect(again.status == 400, "a code works once")
    #expect(FirebaseEmulatorAdminTests.message(again.json)?.hasPrefix("INVALID_IDP_RESPONSE") == true)
  }

  @Test func revokeTokenRefusesAnUnknownTokenTypeAndAnotherProvider() async throws {
    let idToken = try await appleUser()
    let unknownType = try await post(
      Self.revokeToken, ["providerId": "apple.com", "tokenType": "PASSWORD", "token": "c", "idToken": idToken])
    #expect(unknownType.status == 400)
    #expect(FirebaseEmulatorAdminTests.message(unknownType.json)?.hasPrefix("INVALID_ARGUMENT") == true)
    let google = try await post(
      Self.revokeToken, ["providerId": "google.com", "tokenType": "CODE", "token": "c", "idToken": idToken])
    #expect(google.status == 400)
    #expect(FirebaseEmulatorAdminTests.message(google.json)?.hasPrefix("INVALID_PROVIDER_ID") == true)
  }

  static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key"
  static let update = "/identitytoolkit.googleapis.com/v1/accounts:update?key=fake-api-key"
  static let lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=fake-api-key"

  @Test func aProfileSentInAnotherSpellingIsUnderstoodNotIgnored() async throws {
    // Given an account,
    let created = try await post(
      Self.signUp, ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true])
    let idToken = try #require(created.json["idToken"] as? String)
    // when a client sends its profile in the proto's names and another casing,
    let updated = try await post(
      Self.update, ["id_token": idToken, "display_name": "Ada", "photoURL": "https://example.com/ada.png"])
    #expect(updated.status == 200, "\(updated.json)")
    // then the account has them.
    let looked = try await post(Self.lookup, ["idToken": idToken])
    let user = try #require((looked.json["users"] as? [[String: Any]])?.first)
    #expect(user["displayName"] as? String == "Ada")
    #expect(user["photoUrl"] as? String == "https://example.com/ada.png")
  }

  @Test func aValueOfTheWrongTypeIsA400NamingItsFieldAndChangesNothing() async throws {
    let reply = try await post(Self.signUp, ["email": 5, "password": "correct horse"])
    #expect(reply.status == 400)
    #expect(
      FirebaseEmulatorAdminTests.message(reply.json)
        == "INVALID_ARGUMENT : Invalid value at 'email' (TYPE_STRING); send it as in Firebase's REST reference")
    let missing = try await post(Self.lookup, [:])
    #expect(missing.status == 400)
    #expect(FirebaseEmulatorAdminTests.message(missing.json) == "MISSING_ID_TOKEN")
  }
}

/// `accounts:createAuthUri` (FirebaseAuth's `fetchSignInMethods(forEmail:)`) and the sign-up
/// checks, answered as the Firebase emulator answers them.
@Suite struct FirebaseEmulatorSignInMethodsTests {
  let backend: EmbeddedBackend
  let routes: FirebaseEmulatorRoutes

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    backend = try EmbeddedTestBackend.backend(configuration)
    routes = FirebaseEmulatorRoutes(backend: backend)
  }

  func post(_ name: String, _ body: [String: Any]) async throws -> [String: Any] {
    let reply = await routes.reply(
      method: "POST", target: "/identitytoolkit.googleapis.com/v1/accounts:\(name)?key=fake-api-key",
      headers: ["content-type": "application/json"], body: try JSONSerialization.data(withJSONObject: body))
    return try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:]
  }

  func methods(_ email: String) async throws -> [String: Any] {
    try await post("createAuthUri", ["identifier": email, "continueUri": "http://localhost/"])
  }

  @Test func createAuthUriSaysHowEachEmailSignsIn() async throws {
    let unknown = try await methods("nobody@example.com")
    #expect(unknown["registered"] as? Bool == false)
    #expect(unknown["signinMethods"] as? [String] == [] && unknown["allProviders"] as? [String] == [])
    #expect(unknown["kind"] as? String == "identitytoolkit#CreateAuthUriResponse")
    #expect((unknown["sessionId"] as? String)?.isEmpty == false)

    let ada = try await post("signUp", ["email": "ada@example.com", "password": "correct horse"])
    let idToken = try #require(ada["idToken"] as? String)
    _ = try await post(
      "signInWithIdp",
      [
        "idToken": idToken, "requestUri": "http://localhost", "returnSecureToken": true,
        "postBody": #"id_token={"sub":"g-1","email":"ada@example.com"}&providerId=google.com"#,
      ])
    let linked = try await methods("Ada@Example.com")
    #expect(linked["registered"] as? Bool == true)
    #expect(linked["allProviders"] as? [String] == ["password", "google.com"])
    #expect(linked["signinMethods"] as? [String] == ["password", "google.com"])

    _ = try await post(
      "sendOobCode",
      ["requestType": "EMAIL_SIGNIN", "email": "grace@example.com", "continueUrl": "http://localhost/finish"])
    let code = try #require(await backend.mailbox(for: "grace@example.com").first?.code)
    _ = try await post("signInWithEmailLink", ["email": "grace@example.com", "oobCode": code])
    let byLink = try await methods("grace@example.com")
    #expect(byLink["allProviders"] as? [String] == ["password"])
    #expect(byLink["signinMethods"] as? [String] == ["emailLink"])
  }

  @Test func withEmailEnumerationProtectionItSaysNothingAboutTheEmail() async throws {
    _ = try await post("signUp", ["email": "ada@example.com", "password": "correct horse"])
    await backend.setEmailEnumerationProtection(true)
    let reply = try await methods("ada@example.com")
    #expect(Set(reply.keys) == ["kind", "sessionId"])
  }

  @Test(arguments: [
    (["continueUri": "http://localhost/"], "MISSING_IDENTIFIER"),
    (["identifier": "ada@example.com"], "MISSING_CONTINUE_URI"),
    (["identifier": "not-an-email", "continueUri": "http://localhost/"], "INVALID_IDENTIFIER"),
    (["identifier": "ada@example.com", "continueUri": "no scheme"], "INVALID_CONTINUE_URI"),
  ])
  func createAuthUriNamesWhatIsWrong(_ body: [String: String], _ message: String) async throws {
    let reply = try await post("createAuthUri", body)
    #expect((reply["error"] as? [String: Any])?["message"] as? String == message)
  }

  @Test func aSignUpWithAnEmailButNoPasswordSaysMissingPassword() async throws {
    for body: [String: Any] in [["email": "ada@example.com"], ["email": "ada@example.com", "password": ""]] {
      let reply = try await post("signUp", body)
      #expect((reply["error"] as? [String: Any])?["message"] as? String == "MISSING_PASSWORD")
    }
    #expect(await backend.uid(forEmail: "ada@example.com") == nil)
  }
}

extension FirebaseEmulatorSignInMethodsTests {
  @Test func everyReplyNamesItsKindAsFirebaseDoes() async throws {
    let signUp = try await post("signUp", ["email": "ada@example.com", "password": "correct horse"])
    #expect(signUp["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
    let idToken = try #require(signUp["idToken"] as? String)
    let signIn = try await post("signInWithPassword", ["email": "ada@example.com", "password": "correct horse"])
    #expect(signIn["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
    #expect(
      try await post("lookup", ["idToken": idToken])["kind"] as? String == "identitytoolkit#GetAccountInfoResponse")
    #expect(
      try await post("update", ["idToken": idToken, "displayName": "Ada"])["kind"] as? String
        == "identitytoolkit#SetAccountInfoResponse")
    let sent = try await post("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ada@example.com"])
    #expect(sent["kind"] as? String == "identitytoolkit#GetOobConfirmationCodeResponse")
    let code = try #require(await backend.mailbox(for: "ada@example.com").first?.code)
    #expect(
      try await post("resetPassword", ["oobCode": code])["kind"] as? String == "identitytoolkit#ResetPasswordResponse")
    let idp = try await post(
      "signInWithIdp",
      ["requestUri": "http://localhost", "postBody": #"id_token={"sub":"g-2"}&providerId=google.com"#])
    #expect(idp["kind"] as? String == "identitytoolkit#VerifyAssertionResponse")
    #expect(
      try await post("delete", ["idToken": idToken])["kind"] as? String == "identitytoolkit#DeleteAccountResponse")
  }
}
