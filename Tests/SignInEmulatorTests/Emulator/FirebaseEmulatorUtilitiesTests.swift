import Foundation
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// The emulator's own endpoints a test suite calls between tests, through the routes (no
/// socket): the reset, the project settings and the outbox with its links.
@Suite struct FirebaseEmulatorUtilitiesTests {
  static let project = "/emulator/v1/projects/signinkit-local"
  /// A client call's path, with the API key the emulator asks for.
  static func client(_ name: String) -> String {
    "/identitytoolkit.googleapis.com/v1/accounts:\(name)?key=fake-api-key"
  }
  let routes: FirebaseEmulatorRoutes

  init() throws {
    routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(EmbeddedTestBackend.fast))
  }

  func call(_ method: String, _ target: String, _ body: [String: Any]? = nil) async throws -> (
    status: Int, json: [String: Any]
  ) {
    let data = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
    let reply = await routes.reply(
      method: method, target: target, headers: ["content-type": "application/json"], body: data)
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  func signUp(_ email: String) async throws -> String {
    let reply = try await call(
      "POST", Self.client("signUp"), ["email": email, "password": "correct horse", "returnSecureToken": true])
    return try #require(reply.json["idToken"] as? String, "\(reply.json)")
  }

  static func message(_ json: [String: Any]) -> String? {
    (json["error"] as? [String: Any])?["message"] as? String
  }

  @Test func aResetDeletesEveryAccountWithItsCodes() async throws {
    let ada = try await signUp("ada@example.com")
    _ = try await signUp("grace@example.com")
    _ = try await call("POST", Self.client("sendOobCode"), ["requestType": "VERIFY_EMAIL", "idToken": ada])
    #expect(try await call("GET", Self.project + "/oobCodes").json["oobCodes"] as? [Any] != nil)

    let reset = try await call("DELETE", Self.project + "/accounts")
    #expect(reset.status == 200 && reset.json.isEmpty)
    let lookup = try await call("POST", Self.client("lookup"), ["idToken": ada])
    #expect(Self.message(lookup.json) == "USER_NOT_FOUND")
    #expect((try await call("GET", Self.project + "/oobCodes").json["oobCodes"] as? [Any])?.isEmpty ?? true)
    // The address is free again.
    _ = try await signUp("ada@example.com")
  }

  @Test func theConfigTurnsEmailEnumerationProtectionOnAndOff() async throws {
    let initial = try await call("GET", Self.project + "/config")
    #expect(initial.status == 200)
    #expect((initial.json["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool == false)
    #expect((initial.json["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == false)
    let unknown = ["email": "nobody@example.com", "password": "whatever1"]
    #expect(Self.message(try await call("POST", Self.client("signInWithPassword"), unknown).json) == "EMAIL_NOT_FOUND")

    let on = try await call(
      "PATCH", Self.project + "/config", ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
    #expect((on.json["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == true)
    #expect(
      Self.message(try await call("POST", Self.client("signInWithPassword"), unknown).json)
        == "INVALID_LOGIN_CREDENTIALS")

    // A client may spell the field in snake case, as the emulator normalises keys.
    _ = try await call(
      "PATCH", Self.project + "/config", ["email_privacy_config": ["enable_improved_email_privacy": false]])
    #expect(Self.message(try await call("POST", Self.client("signInWithPassword"), unknown).json) == "EMAIL_NOT_FOUND")
  }

  @Test func duplicateEmailsCannotBeTurnedOnAndNothingChanges() async throws {
    let refused = try await call(
      "PATCH", Self.project + "/config",
      ["signIn": ["allowDuplicateEmails": true], "emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
    #expect(refused.status == 400)
    #expect(Self.message(refused.json)?.contains("one account per email") == true)
    let config = try await call("GET", Self.project + "/config")
    #expect((config.json["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == false)
  }

  @Test func eachCodeInTheOutboxCarriesALinkTheActionPageAccepts() async throws {
    let ada = try await signUp("ada@example.com")
    _ = try await call("POST", Self.client("sendOobCode"), ["requestType": "VERIFY_EMAIL", "idToken": ada])
    let codes = try #require(try await call("GET", Self.project + "/oobCodes").json["oobCodes"] as? [[String: Any]])
    let text = try #require(codes.first?["oobLink"] as? String)
    let link = try #require(URLComponents(string: text))
    #expect(link.queryItems?.first { $0.name == "mode" }?.value == "verifyEmail")
    #expect(link.queryItems?.first { $0.name == "oobCode" }?.value == codes.first?["oobCode"] as? String)

    let page = await routes.reply(
      method: "GET", target: link.percentEncodedPath + "?" + (link.percentEncodedQuery ?? ""), headers: [:],
      body: Data())
    #expect(page.status == 200)
    #expect(String(decoding: page.body, as: UTF8.self).contains("ada@example.com is verified"))
    let user = try await call("POST", Self.client("lookup"), ["idToken": ada])
    #expect(((user.json["users"] as? [[String: Any]])?.first?["emailVerified"] as? Bool) == true)
  }

  @Test func aWrongMethodIsRefused() async throws {
    #expect(try await call("POST", Self.project + "/accounts").status == 405)
    #expect(try await call("DELETE", Self.project + "/config").status == 405)
  }
}

extension FirebaseEmulatorUtilitiesTests {
  @Test func theProjectConfigListsTheAuthorizedDomainsForAClientWithAKey() async throws {
    for target in [
      "/identitytoolkit.googleapis.com/v1/projects?key=fake-api-key",
      "/www.googleapis.com/identitytoolkit/v3/relyingparty/getProjectConfig?key=fake-api-key",
    ] {
      let reply = try await call("GET", target)
      #expect(reply.status == 200)
      #expect(reply.json["projectId"] as? String == "signinkit-local")
      let domains = reply.json["authorizedDomains"] as? [String] ?? []
      #expect(domains.contains("localhost") && domains.contains("signinkit-local.firebaseapp.com"))
    }
    #expect(try await call("GET", "/identitytoolkit.googleapis.com/v1/projects").status == 403)
  }
}
