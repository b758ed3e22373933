import Foundation
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Behaviours where `signin serve` differed from the Firebase emulator, each as the emulator's
/// source (`firebase-tools`, `src/emulator/auth/operations.ts` and `state.ts`) has it.
@Suite struct FirebaseEmulatorBehaviourTests {
  typealias Admin = FirebaseEmulatorAdminTests
  let admin: Admin
  let client: FirebaseEmulatorRoutesTests

  init() throws {
    admin = try Admin()
    client = try FirebaseEmulatorRoutesTests()
  }

  var project: String { Admin.projectURL }

  func lookup(_ uid: String, in routes: FirebaseEmulatorRoutes? = nil) async throws -> [String: Any] {
    let body = try JSONSerialization.data(withJSONObject: ["localId": [uid]])
    let reply = await (routes ?? admin.routes).reply(
      method: "POST", target: "\(project)/accounts:lookup", headers: Admin.owner, body: body)
    let json = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
    return (json?["users"] as? [[String: Any]])?.first ?? [:]
  }

  /// Review V: a client's `accounts:lookup` of an account with a password carries Firebase's
  /// redacted `passwordHash` (`REDACTED` in base64) and no salt; an administrator's the hash.
  @Test func aClientLookupCarriesTheRedactedPasswordHash() async throws {
    let signedUp = try await client.post(
      "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
      ["email": "ada@example.com", "password": "secret1", "returnSecureToken": true])
    let idToken = try #require(signedUp.json["idToken"] as? String)
    let looked = try await client.post("/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k", ["idToken": idToken])
    let user = try #require((looked.json["users"] as? [[String: Any]])?.first)
    #expect(user["passwordHash"] as? String == "UkVEQUNURUQ=")
    #expect(user["salt"] == nil)
    let anonymous = try await client.post(
      "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", ["returnSecureToken": true])
    let bare = try await client.post(
      "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k", ["idToken": anonymous.json["idToken"] ?? ""])
    #expect((bare.json["users"] as? [[String: Any]])?.first?["passwordHash"] == nil)
  }

  /// `accounts:update` with `deleteProvider: ["password"]` removes the email and password, as the
  /// emulator does (it used to leave both in place for an administrator).
  @Test func anAdministratorRemovesThePasswordProvider() async throws {
    _ = try await admin.call(
      "\(project)/accounts", ["localId": "p-1", "email": "ada@example.com", "password": "secret1"])
    var user = try await lookup("p-1")
    let password = (user["providerUserInfo"] as? [[String: Any]])?.first { $0["providerId"] as? String == "password" }
    #expect(password?["federatedId"] as? String == "ada@example.com", "the password entry's id is its email")
    let updated = try await admin.call(
      "\(project)/accounts:update", ["localId": "p-1", "deleteProvider": ["password"]])
    #expect(updated.status == 200)
    user = try await lookup("p-1")
    #expect(user["email"] == nil && user["passwordHash"] == nil)
    #expect((user["providerUserInfo"] as? [[String: Any]] ?? []).isEmpty)
  }

  /// `accounts:batchCreate` keeps a user's phone number and disabled flag, and refuses a number
  /// that is not E.164 or that another account has, by index.
  @Test func anImportKeepsPhoneNumbersAndTheDisabledFlag() async throws {
    let reply = try await admin.call(
      "\(project)/accounts:batchCreate",
      [
        "users": [
          ["localId": "i-1", "phoneNumber": "+15555550101", "disabled": true],
          ["localId": "i-2", "phoneNumber": "555-0102"],
          ["localId": "i-3", "phoneNumber": "+15555550101"],
        ]
      ])
    #expect(reply.status == 200)
    let errors = reply.json["error"] as? [[String: Any]] ?? []
    #expect(errors.map { $0["index"] as? Int } == [1, 2], "\(errors)")
    #expect((errors.first?["message"] as? String)?.contains("phone number format is invalid") == true)
    let user = try await lookup("i-1")
    #expect(user["phoneNumber"] as? String == "+15555550101")
    #expect(user["disabled"] as? Bool == true)
  }

  /// `signInWithIdp` answers with what the IdP said of the user, as the emulator does: the
  /// federated id, the profile, the claims as `rawUserInfo`, and the IdP's tokens.
  @Test func anIdPSignInAnswersWithTheIdentitysProfile() async throws {
    let token =
      #"{"sub":"g-7","email":"grace@example.com","email_verified":true,"name":"Grace Hopper","#
      + #""given_name":"Grace","family_name":"Hopper","picture":"https://example.com/g.png"}"#
    let reply = try await client.post(
      "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key",
      [
        "postBody": ProviderCredential(providerID: .google, idToken: token, accessToken: "ya29.at").postBody,
        "requestUri": "http://localhost", "returnSecureToken": true, "returnIdpCredential": true,
      ])
    #expect(reply.status == 200)
    #expect(reply.json["federatedId"] as? String == "https://accounts.google.com/g-7")
    #expect(reply.json["firstName"] as? String == "Grace" && reply.json["lastName"] as? String == "Hopper")
    #expect(reply.json["fullName"] as? String == "Grace Hopper")
    #expect(reply.json["photoUrl"] as? String == "https://example.com/g.png")
    #expect(reply.json["emailVerified"] as? Bool == true)
    #expect(reply.json["oauthAccessToken"] as? String == "ya29.at")
    let raw = try #require((reply.json["rawUserInfo"] as? String).map { Data($0.utf8) })
    let info = try JSONSerialization.jsonObject(with: raw) as? [String: Any]
    #expect(info?["id"] as? String == "g-7" && info?["verified_email"] as? Bool == true)
    #expect((info?["granted_scopes"] as? String)?.contains("userinfo.email") == true)
  }

  /// The JS SDK asks for the password policy and the reCAPTCHA settings at start; both were 404.
  @Test func theSettingsAClientAsksAtStartAreAnswered() async throws {
    for (target, check) in [
      (
        "/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k",
        { (json: [String: Any]) in
          let options = json["customStrengthOptions"] as? [String: Any]
          return json["enforcementState"] as? String == "OFF" && options?["minPasswordLength"] as? Int == 6
            && options?["maxPasswordLength"] as? Int == 4096
        }
      ),
      (
        "/identitytoolkit.googleapis.com/v2/recaptchaConfig?key=k&clientType=CLIENT_TYPE_WEB&version=RECAPTCHA_ENTERPRISE",
        { (json: [String: Any]) in
          let states = json["recaptchaEnforcementState"] as? [[String: Any]] ?? []
          return states.count == 2 && states.allSatisfy { $0["enforcementState"] as? String == "OFF" }
        }
      ),
    ] as [(String, ([String: Any]) -> Bool)] {
      let reply = await client.routes.reply(method: "GET", target: target, headers: [:], body: Data())
      let json = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:]
      #expect(reply.status == 200 && check(json), "\(target): \(json)")
    }
  }

  /// An administrator's `accounts:query` (404 before): pages in uid order, either way, a filter,
  /// and the count alone.
  @Test func anAdministratorQueriesTheUsers() async throws {
    for (uid, email) in [("q-2", "b@example.com"), ("q-1", "a@example.com"), ("q-3", "c@example.com")] {
      _ = try await admin.call("\(project)/accounts", ["localId": uid, "email": email])
    }
    func query(_ body: [String: Any]) async throws -> (count: String?, uids: [String]) {
      let reply = try await admin.call("\(project)/accounts:query", body)
      #expect(reply.status == 200, "\(reply.json)")
      let users = reply.json["userInfo"] as? [[String: Any]] ?? []
      return (reply.json["recordsCount"] as? String, users.compactMap { $0["localId"] as? String })
    }
    #expect(try await query([:]) == ("3", ["q-1", "q-2", "q-3"]))
    #expect(try await query(["limit": "1", "offset": "1"]).uids == ["q-2"])
    #expect(try await query(["order": "DESC", "sortBy": "USER_ID"]).uids == ["q-3", "q-2", "q-1"])
    #expect(try await query(["expression": [["email": "C@example.com"], ["userId": "q-1"]]]) == ("2", ["q-1", "q-3"]))
    #expect(try await query(["returnUserInfo": false]) == ("3", []))
    let refused = try await admin.call("\(project)/accounts:query", ["sortBy": "NAME"])
    #expect(refused.status == 400 && Admin.message(refused.json)?.hasPrefix("INVALID_ARGUMENT") == true)
  }
}
