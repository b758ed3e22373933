import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// The admin API the Firebase Admin SDKs call in emulator mode, through the routes (no socket).
@Suite struct FirebaseEmulatorAdminTests {
  static let owner = ["authorization": "Bearer owner", "host": "127.0.0.1:9099", "content-type": "application/json"]
  static let json = ["content-type": "application/json"]
  static let projectURL = "/identitytoolkit.googleapis.com/v1/projects/signinkit-local"

  let clock = TestDate()
  let routes: FirebaseEmulatorRoutes

  init() throws {
    routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend(clock: clock))
  }

  func call(
    _ target: String, _ body: [String: Any] = [:], method: String = "POST", headers: [String: String] = owner
  ) async throws -> (status: Int, json: [String: Any]) {
    let data = try JSONSerialization.data(withJSONObject: body)
    let reply = await routes.reply(method: method, target: target, headers: headers, body: data)
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  static func message(_ json: [String: Any]) -> String? {
    (json["error"] as? [String: Any])?["message"] as? String
  }

  @Test func adminCallsNeedTheOwnerCredential() async throws {
    let anonymous = try await call("\(Self.projectURL)/accounts", ["email": "a@example.com"], headers: Self.json)
    #expect(anonymous.status == 401)
    #expect(Self.message(anonymous.json)?.contains("Authorization: Bearer owner") == true)
    let upperCase = try await call(
      "\(Self.projectURL)/accounts", [:],
      headers: ["authorization": "BEARER OWNER", "content-type": "application/json"])
    #expect(upperCase.status == 200)
    let other = try await call(
      "/identitytoolkit.googleapis.com/v1/projects/another/accounts:lookup", ["localId": ["x"]])
    // Another project is made on first use, with no accounts (EmulatorProjectsTests).
    #expect(other.status == 200 && other.json["users"] == nil)
  }

  @Test func lookupFindsAMixedBatchByUidEmailAndProviderUid() async throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    let backend = try EmbeddedTestBackend.backend(configuration, clock: clock)
    let routes = FirebaseEmulatorRoutes(backend: backend)
    let created = await routes.reply(
      method: "POST", target: "\(Self.projectURL)/accounts", headers: Self.owner,
      body: Data(#"{"localId":"uid-1","email":"ada@example.com"}"#.utf8))
    #expect(created.status == 200)
    let federated = try await backend.signInWithIdp(
      IdpSignInRequest(credential: ProviderCredential(providerID: .google, idToken: #"{"sub":"g-9"}"#)))
    let body = try JSONSerialization.data(withJSONObject: [
      "localId": ["missing"], "email": ["ada@example.com"],
      "federatedUserId": [["providerId": "google.com", "rawId": "g-9"], ["providerId": "google.com", "rawId": "x"]],
    ])
    let found = await routes.reply(
      method: "POST", target: "\(Self.projectURL)/accounts:lookup", headers: Self.owner, body: body)
    let users = (try JSONSerialization.jsonObject(with: found.body) as? [String: Any])?["users"] as? [[String: Any]]
    #expect(Set(users?.compactMap { $0["localId"] as? String } ?? []) == ["uid-1", federated.localID])
    let google = users?.first { $0["localId"] as? String == federated.localID }?["providerUserInfo"] as? [[String: Any]]
    #expect(google?.first?["federatedId"] as? String == "g-9")
  }

  @Test func lookupSaysWhenThePasswordChangedAndWhenTheUserLastGotAToken() async throws {
    let backend = routes.backend
    let signedUp = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let started = clock.now
    func user() async throws -> [String: Any] {
      let found = try await call("\(Self.projectURL)/accounts:lookup", ["localId": [signedUp.localID]])
      return try #require((found.json["users"] as? [[String: Any]])?.first)
    }
    var record = try await user()
    #expect(record["passwordUpdatedAt"] as? Double == started.timeIntervalSince1970 * 1000)
    #expect(record["lastRefreshAt"] as? String == started.formatted(ReplyShapes.isoMilliseconds))

    clock.advance(90)
    _ = try await backend.refresh(RefreshTokenRequest(refreshToken: signedUp.tokens.refreshToken))
    record = try await user()
    #expect(record["lastRefreshAt"] as? String == clock.now.formatted(ReplyShapes.isoMilliseconds))
    #expect(record["passwordUpdatedAt"] as? Double == started.timeIntervalSince1970 * 1000)

    clock.advance(30)
    let changed = try await call(
      "\(Self.projectURL)/accounts:update", ["localId": signedUp.localID, "password": "battery staple"])
    #expect(changed.status == 200)
    record = try await user()
    #expect(record["passwordUpdatedAt"] as? Double == clock.now.timeIntervalSince1970 * 1000)

    // The user's own lookup lists the dates too, never the hash: Firebase's redacted placeholder.
    let signedIn = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "battery staple"))
    let own = await routes.reply(
      method: "POST", target: "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k", headers: Self.json,
      body: try JSONSerialization.data(withJSONObject: ["idToken": signedIn.tokens.idToken]))
    let ownUser = try #require(
      ((try JSONSerialization.jsonObject(with: own.body) as? [String: Any])?["users"] as? [[String: Any]])?.first)
    #expect(ownUser["passwordUpdatedAt"] as? Double == clock.now.timeIntervalSince1970 * 1000)
    #expect(ownUser["lastRefreshAt"] != nil && ownUser["validSince"] != nil)
    #expect(ownUser["passwordHash"] as? String == "UkVEQUNURUQ=" && ownUser["salt"] == nil)
  }

  @Test func createsLooksUpUpdatesAndDeletesAnAccount() async throws {
    let created = try await call(
      "\(Self.projectURL)/accounts",
      ["localId": "uid-1", "email": "Ada@Example.com", "password": "correct horse", "displayName": "Ada"])
    #expect(created.status == 200 && created.json["localId"] as? String == "uid-1")
    let duplicate = try await call("\(Self.projectURL)/accounts", ["email": "ada@example.com", "password": "secret12"])
    #expect(Self.message(duplicate.json) == "DUPLICATE_EMAIL")
    let takenUID = try await call("\(Self.projectURL)/accounts", ["localId": "uid-1"])
    #expect(Self.message(takenUID.json) == "DUPLICATE_LOCAL_ID")

    let byEmail = try await call("\(Self.projectURL)/accounts:lookup", ["email": ["ada@example.com"]])
    let user = try #require((byEmail.json["users"] as? [[String: Any]])?.first)
    #expect(user["localId"] as? String == "uid-1" && user["displayName"] as? String == "Ada")
    // The administrator sees the password's hash and salt, never the password.
    #expect((user["passwordHash"] as? String)?.isEmpty == false && (user["salt"] as? String)?.isEmpty == false)
    #expect(!String(describing: user).contains("correct horse"))
    #expect(user["validSince"] as? String == "1800000000")

    let updated = try await call(
      "\(Self.projectURL)/accounts:update",
      [
        "localId": "uid-1", "disableUser": true, "emailVerified": true, "customAttributes": #"{"admin":true}"#,
        "deleteAttribute": ["DISPLAY_NAME"],
      ])
    #expect(updated.status == 200)
    // The reply is Firebase's SetAccountInfoResponse, as the emulator answers it; the rest is in
    // a lookup.
    #expect(updated.json["localId"] as? String == "uid-1" && updated.json["displayName"] == nil)
    #expect(updated.json["emailVerified"] as? Bool == true)
    let changed = try await call("\(Self.projectURL)/accounts:lookup", ["localId": ["uid-1"]])
    let record = try #require((changed.json["users"] as? [[String: Any]])?.first)
    #expect(record["disabled"] as? Bool == true && record["displayName"] == nil)
    #expect(record["customAttributes"] as? String == #"{"admin":true}"#)
    let signIn = await routes.reply(
      method: "POST", target: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key",
      headers: Self.json,
      body: Data(#"{"email":"ada@example.com","password":"correct horse"}"#.utf8))
    #expect(String(decoding: signIn.body, as: UTF8.self).contains("USER_DISABLED"))

    let deleted = try await call("\(Self.projectURL)/accounts:delete", ["localId": "uid-1"])
    #expect(deleted.status == 200)
    let gone = try await call("\(Self.projectURL)/accounts:lookup", ["localId": ["uid-1"]])
    #expect(gone.status == 200 && gone.json["users"] == nil)
    let again = try await call("\(Self.projectURL)/accounts:delete", ["localId": "uid-1"])
    #expect(Self.message(again.json) == "USER_NOT_FOUND")
  }

  @Test func customClaimsAppearInTheIDTokenAfterTheNextRefresh() async throws {
    let backend = routes.backend
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let set = try await call(
      "\(Self.projectURL)/accounts:update", ["localId": session.localID, "customAttributes": #"{"role":"editor"}"#])
    #expect(set.status == 200)
    #expect(try JSONWebToken(decoding: session.tokens.idToken).claims["role"] == nil)
    let refreshed = try await backend.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
    #expect(try JSONWebToken(decoding: refreshed.tokens.idToken).claims["role"] == .string("editor"))

    let reserved = try await call(
      "\(Self.projectURL)/accounts:update", ["localId": session.localID, "customAttributes": #"{"iss":"x"}"#])
    #expect(Self.message(reserved.json) == "FORBIDDEN_CLAIM : iss")
    let large = try await call(
      "\(Self.projectURL)/accounts:update",
      ["localId": session.localID, "customAttributes": "{\"a\":\"\(String(repeating: "x", count: 1000))\"}"])
    #expect(Self.message(large.json) == "CLAIMS_TOO_LARGE")
    let notObject = try await call(
      "\(Self.projectURL)/accounts:update", ["localId": session.localID, "customAttributes": "[1]"])
    #expect(Self.message(notObject.json) == "INVALID_CLAIMS")
    let cleared = try await call(
      "\(Self.projectURL)/accounts:update", ["localId": session.localID, "customAttributes": "{}"])
    #expect(cleared.json["customAttributes"] == nil)
  }

  @Test func validSinceRevokesTokensFromEarlierSecondsOnly() async throws {
    let backend = routes.backend
    clock.advance(0.25)
    let session = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    // In the same second the revocation leaves the session alone, as Firebase's does.
    _ = try await call("\(Self.projectURL)/accounts:update", ["localId": session.localID, "validSince": "1800000000"])
    _ = try await backend.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
    clock.advance(1)
    _ = try await call("\(Self.projectURL)/accounts:update", ["localId": session.localID, "validSince": "1800000001"])
    await #expect(throws: AuthError.self) {
      try await backend.refresh(RefreshTokenRequest(refreshToken: session.tokens.refreshToken))
    }
    do {
      _ = try await backend.lookup(LookupRequest(idToken: session.tokens.idToken))
      Issue.record("a revoked ID token was accepted")
    } catch let error as AuthError {
      #expect(error.serverMessage == "TOKEN_EXPIRED")
    }
    let fresh = try await backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "correct horse"))
    _ = try await backend.lookup(LookupRequest(idToken: fresh.tokens.idToken))
  }

  @Test func listsEveryAccountOncePageByPage() async throws {
    for index in 0..<5 {
      _ = try await call(
        "\(Self.projectURL)/accounts", ["localId": "uid-\(index)", "email": "user\(index)@example.com"])
    }
    var seen: [String] = []
    var token: String?
    var pages = 0
    repeat {
      let query = "maxResults=2" + (token.map { "&nextPageToken=\($0)" } ?? "")
      let page = try await call("\(Self.projectURL)/accounts:batchGet?\(query)", method: "GET")
      #expect(page.status == 200)
      seen += (page.json["users"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
      token = page.json["nextPageToken"] as? String
      pages += 1
    } while token != nil
    #expect(seen == (0..<5).map { "uid-\($0)" })
    #expect(pages == 3)
    let bad = try await call("\(Self.projectURL)/accounts:batchGet?maxResults=0", method: "GET")
    #expect(bad.status == 400)
    let post = try await call("\(Self.projectURL)/accounts:batchGet")
    #expect(post.status == 405)
  }

  @Test func anOutOfBandLinkOpensAPageThatUsesItsCode() async throws {
    _ = try await call("\(Self.projectURL)/accounts", ["email": "ada@example.com", "password": "correct horse"])
    let reply = try await call(
      "\(Self.projectURL)/accounts:sendOobCode",
      ["requestType": "PASSWORD_RESET", "email": "ada@example.com", "returnOobLink": true])
    let link = try #require((reply.json["oobLink"] as? String).flatMap(URLComponents.init(string:)))
    #expect(link.host == "127.0.0.1" && link.port == 9099 && link.path == "/emulator/action")
    #expect(link.queryItems?.first { $0.name == "oobCode" }?.value == reply.json["oobCode"] as? String)

    let target = "\(link.path)?\(link.percentEncodedQuery ?? "")"
    let look = await routes.reply(method: "GET", target: target, body: Data())
    #expect(look.status == 200 && look.contentType.hasPrefix("text/plain"))
    #expect(String(decoding: look.body, as: UTF8.self).contains("ada@example.com"))
    let reset = await routes.reply(method: "GET", target: target + "&newPassword=another%20horse", body: Data())
    #expect(reset.status == 200)
    _ = try await routes.backend.signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "another horse"))
    let reused = await routes.reply(method: "GET", target: target + "&newPassword=third%20horse", body: Data())
    #expect(reused.status == 400)
    let unknown = try await call(
      "\(Self.projectURL)/accounts:sendOobCode",
      ["requestType": "PASSWORD_RESET", "email": "nobody@example.com", "returnOobLink": true])
    #expect(Self.message(unknown.json) == "EMAIL_NOT_FOUND")
  }

  @Test func changeOfEmailAndSignInLinksAreMadeForTheAdministrator() async throws {
    _ = try await call("\(Self.projectURL)/accounts", ["email": "ada@example.com", "password": "correct horse"])
    _ = try await call("\(Self.projectURL)/accounts", ["email": "grace@example.com"])
    let change = try await call(
      "\(Self.projectURL)/accounts:sendOobCode",
      [
        "requestType": "VERIFY_AND_CHANGE_EMAIL", "email": "ada@example.com", "newEmail": "ada@new.example",
        "returnOobLink": true,
      ])
    let link = try #require((change.json["oobLink"] as? String).flatMap(URLComponents.init(string:)))
    #expect(link.queryItems?.first { $0.name == "mode" }?.value == "verifyAndChangeEmail")
    let page = await routes.reply(
      method: "GET", target: "\(link.path)?\(link.percentEncodedQuery ?? "")", body: Data())
    #expect(page.status == 200)
    #expect(await routes.backend.uid(forEmail: "ada@new.example") != nil)
    let taken = try await call(
      "\(Self.projectURL)/accounts:sendOobCode",
      [
        "requestType": "VERIFY_AND_CHANGE_EMAIL", "email": "ada@new.example", "newEmail": "grace@example.com",
        "returnOobLink": true,
      ])
    #expect(Self.message(taken.json) == "EMAIL_EXISTS")

    let signIn = try await call(
      "\(Self.projectURL)/accounts:sendOobCode",
      [
        "requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "http://localhost/finish",
        "returnOobLink": true,
      ])
    let code = try #require(signIn.json["oobCode"] as? String)
    let user = try await routes.backend.signInWithEmailLink(
      EmailLinkSignInRequest(email: "new@example.com", oobCode: code))
    #expect(user.isNewUser)
    let noContinue = try await call(
      "\(Self.projectURL)/accounts:sendOobCode",
      ["requestType": "EMAIL_SIGNIN", "email": "new@example.com", "returnOobLink": true])
    #expect(Self.message(noContinue.json) == "MISSING_CONTINUE_URI")
  }

  @Test func aSessionCookieCarriesTheIDTokensClaimsForItsDuration() async throws {
    let user = try await routes.backend.signUp(SignUpRequest(email: "ada@example.com", password: "correct horse"))
    let target = "/identitytoolkit.googleapis.com/v1/projects/signinkit-local:createSessionCookie"
    let reply = try await call(target, ["idToken": user.tokens.idToken, "validDuration": "3600"])
    let cookie = try JSONWebToken(decoding: try #require(reply.json["sessionCookie"] as? String))
    #expect(cookie.claims["iss"]?.string == "https://session.firebase.google.com/signinkit-local")
    #expect(cookie.claims["sub"]?.string == user.localID && cookie.claims["email"]?.string == "ada@example.com")
    let issuedAt = try #require(cookie.claims["iat"]?.number)
    #expect(cookie.claims["exp"]?.number == issuedAt + 3600)
    // Signed with the backend's key, as its ID tokens are.
    let keys = try JSONWebKeySet(json: try await routes.backend.jwks)
    let key = try #require(keys.keys.first { $0.kid == cookie.keyID })
    #expect(cookie.algorithm == "RS256")
    #expect(key.publicKey.verifyRS256(signature: cookie.signature, message: Array(cookie.signingInput.utf8)))

    for duration in ["60", "1209601"] {
      let refused = try await call(target, ["idToken": user.tokens.idToken, "validDuration": duration])
      #expect(Self.message(refused.json) == "INVALID_DURATION")
    }
    let unauthenticated = try await call(target, ["idToken": user.tokens.idToken], headers: Self.json)
    #expect(unauthenticated.status == 401)
    let other = try await call(
      "/identitytoolkit.googleapis.com/v1/projects/another:createSessionCookie", ["idToken": user.tokens.idToken])
    #expect(other.status == 400)
    #expect(Self.message(other.json) == "INVALID_ID_TOKEN")  // the token names the served project
  }

  @Test func batchDeleteTreatsAMissingAccountAsDeleted() async throws {
    _ = try await call("\(Self.projectURL)/accounts", ["localId": "uid-1"])
    let reply = try await call(
      "\(Self.projectURL)/accounts:batchDelete", ["localIds": ["uid-1", "never"], "force": true])
    #expect(reply.status == 200 && reply.json["errors"] == nil)
    #expect(try await routes.backend.administering({ try $0.adminLookup(uids: ["uid-1"], emails: []) }).isEmpty)
  }
}
