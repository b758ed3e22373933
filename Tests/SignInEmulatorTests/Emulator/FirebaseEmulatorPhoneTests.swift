import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import Testing

@testable import SignInEmulator
@testable import SignInKit
@testable import SignInKitEmbedded

/// Phone numbers through the emulator's routes: the client's SMS sign-in with the emulator's
/// list of codes, and the admin calls that set, find and remove a number.
@Suite struct FirebaseEmulatorPhoneTests {
  static let owner = ["authorization": "Bearer owner", "content-type": "application/json"]
  static let client = ["content-type": "application/json"]
  static let admin = "/identitytoolkit.googleapis.com/v1/projects/signinkit-local"

  let routes: FirebaseEmulatorRoutes

  init() throws {
    routes = FirebaseEmulatorRoutes(backend: try EmbeddedTestBackend.backend())
  }

  func call(_ target: String, _ body: [String: Any], headers: [String: String] = client) async throws -> (
    status: Int, json: [String: Any]
  ) {
    let reply = await routes.reply(
      method: "POST", target: target, headers: headers, body: try JSONSerialization.data(withJSONObject: body))
    return (reply.status, try JSONSerialization.jsonObject(with: reply.body) as? [String: Any] ?? [:])
  }

  func clientCall(_ name: String, _ body: [String: Any]) async throws -> (status: Int, json: [String: Any]) {
    try await call("/identitytoolkit.googleapis.com/v1/accounts:\(name)?key=k", body)
  }

  func codes() async throws -> [[String: Any]] {
    let reply = await routes.reply(
      method: "GET", target: "/emulator/v1/projects/signinkit-local/verificationCodes", headers: [:], body: Data())
    return (try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])?["verificationCodes"]
      as? [[String: Any]] ?? []
  }

  static func message(_ json: [String: Any]) -> String? {
    (json["error"] as? [String: Any])?["message"] as? String
  }

  /// Asks for a code for `phone` and reads it from the emulator's list.
  func sendCode(to phone: String) async throws -> (sessionInfo: String, code: String) {
    let sent = try await clientCall("sendVerificationCode", ["phoneNumber": phone])
    let sessionInfo = try #require(sent.json["sessionInfo"] as? String, "\(sent.json)")
    let listed = try #require(try await codes().first { $0["sessionInfo"] as? String == sessionInfo })
    #expect(listed["phoneNumber"] as? String == phone)
    return (sessionInfo, try #require(listed["code"] as? String))
  }

  @Test func aTextedCodeSignsUpThenSignsInTheNumbersOwner() async throws {
    let refused = try await clientCall("sendVerificationCode", ["phoneNumber": "555-1234"])
    #expect(refused.status == 400 && Self.message(refused.json) == "INVALID_PHONE_NUMBER : Invalid format.")

    var (sessionInfo, code) = try await sendCode(to: "+15551234567")
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    let wrong = try await clientCall(
      "signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code == "000000" ? "111111" : "000000"])
    #expect(Self.message(wrong.json) == "INVALID_CODE")
    let signedUp = try await clientCall("signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code])
    #expect(signedUp.status == 200 && signedUp.json["isNewUser"] as? Bool == true)
    #expect(signedUp.json["phoneNumber"] as? String == "+15551234567")
    let token = try JSONWebToken(decoding: try #require(signedUp.json["idToken"] as? String))
    #expect(token.claims["phone_number"]?.string == "+15551234567")
    #expect(token.claims["firebase"]?.object?["sign_in_provider"]?.string == "phone")
    // A code works once, and leaves the emulator's list.
    let again = try await clientCall("signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code])
    #expect(Self.message(again.json) == "INVALID_SESSION_INFO")
    #expect(try await codes().isEmpty)

    (sessionInfo, code) = try await sendCode(to: "+15551234567")
    let signedIn = try await clientCall("signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code])
    #expect(signedIn.json["isNewUser"] as? Bool == false)
    #expect(signedIn.json["localId"] as? String == signedUp.json["localId"] as? String)
    let user = try await clientCall("lookup", ["idToken": try #require(signedIn.json["idToken"] as? String)])
    let record = try #require((user.json["users"] as? [[String: Any]])?.first)
    #expect(record["phoneNumber"] as? String == "+15551234567")
    let providers = record["providerUserInfo"] as? [[String: Any]]
    #expect(providers?.first?["providerId"] as? String == "phone")
    #expect(providers?.first?["phoneNumber"] as? String == "+15551234567")
  }

  @Test func fiveWrongCodesSpendTheSession() async throws {
    let (sessionInfo, code) = try await sendCode(to: "+447700900123")
    let wrong = code == "000000" ? "111111" : "000000"
    for _ in 0..<EmbeddedBackend.secondFactorAttempts {
      let reply = try await clientCall("signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": wrong])
      #expect(Self.message(reply.json) == "INVALID_CODE")
    }
    let right = try await clientCall("signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code])
    #expect(Self.message(right.json) == "INVALID_SESSION_INFO")
    let missing = try await clientCall("signInWithPhoneNumber", ["code": code])
    #expect(Self.message(missing.json) == "MISSING_SESSION_INFO")
  }

  @Test func aCodeLinksTheNumberToTheSignedInUserUnlessAnotherHasIt() async throws {
    let signedUp = try await clientCall(
      "signUp", ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true])
    let idToken = try #require(signedUp.json["idToken"] as? String)
    var (sessionInfo, code) = try await sendCode(to: "+15550000001")
    let linked = try await clientCall(
      "signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code, "idToken": idToken])
    #expect(linked.status == 200 && linked.json["localId"] as? String == signedUp.json["localId"] as? String)
    #expect(linked.json["isNewUser"] as? Bool == false)

    let other = try await clientCall(
      "signUp", ["email": "tim@example.com", "password": "correct horse", "returnSecureToken": true])
    (sessionInfo, code) = try await sendCode(to: "+15550000001")
    let taken = try await clientCall(
      "signInWithPhoneNumber",
      ["sessionInfo": sessionInfo, "code": code, "idToken": try #require(other.json["idToken"] as? String)])
    #expect(Self.message(taken.json) == "PHONE_NUMBER_EXISTS")
  }

  @Test func anAdministratorSetsFindsAndRemovesANumber() async throws {
    let created = try await call(
      Self.admin + "/accounts", ["localId": "p-1", "phoneNumber": "+15557654321"], headers: Self.owner)
    #expect(created.status == 200)
    let duplicate = try await call(
      Self.admin + "/accounts", ["localId": "p-2", "phoneNumber": "+15557654321"], headers: Self.owner)
    #expect(Self.message(duplicate.json) == "PHONE_NUMBER_EXISTS")
    let invalid = try await call(Self.admin + "/accounts", ["phoneNumber": "15557654321"], headers: Self.owner)
    #expect(Self.message(invalid.json) == "INVALID_PHONE_NUMBER : Invalid format.")

    let found = try await call(
      Self.admin + "/accounts:lookup", ["phoneNumber": ["+15557654321"]], headers: Self.owner)
    #expect((found.json["users"] as? [[String: Any]])?.first?["localId"] as? String == "p-1")
    // The number's owner signs in with a texted code.
    let (sessionInfo, code) = try await sendCode(to: "+15557654321")
    let signedIn = try await clientCall("signInWithPhoneNumber", ["sessionInfo": sessionInfo, "code": code])
    #expect(signedIn.json["localId"] as? String == "p-1")

    let removed = try await call(
      Self.admin + "/accounts:update", ["localId": "p-1", "deleteProvider": ["phone"]], headers: Self.owner)
    #expect(removed.status == 200)
    let gone = try await call(
      Self.admin + "/accounts:lookup", ["phoneNumber": ["+15557654321"]], headers: Self.owner)
    #expect(gone.json["users"] == nil)
    // The number is free for another account now.
    let reused = try await call(
      Self.admin + "/accounts", ["localId": "p-2", "phoneNumber": "+15557654321"], headers: Self.owner)
    #expect(reused.status == 200)
  }

  func v2(_ name: String, _ body: [String: Any]) async throws -> (status: Int, json: [String: Any]) {
    try await call("/identitytoolkit.googleapis.com/v2/accounts/\(name)?key=k", body)
  }

  func listedCode(_ sessionInfo: String) async throws -> String {
    try #require(try await codes().first { $0["sessionInfo"] as? String == sessionInfo }?["code"] as? String)
  }

  @Test func anSMSSecondFactorIsEnrolledThenAskedForAtSignIn() async throws {
    let signedUp = try await clientCall(
      "signUp", ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true])
    let uid = try #require(signedUp.json["localId"] as? String)
    _ = try await call(
      Self.admin + "/accounts:update", ["localId": uid, "emailVerified": true], headers: Self.owner)
    let session = try await clientCall(
      "signInWithPassword", ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true])
    let idToken = try #require(session.json["idToken"] as? String)

    let started = try await v2(
      "mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15550001111"]])
    let enrollment = try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String)
    // A first-factor sign-in cannot spend an enrollment's code.
    let misuse = try await clientCall(
      "signInWithPhoneNumber", ["sessionInfo": enrollment, "code": try await listedCode(enrollment)])
    #expect(Self.message(misuse.json) == "INVALID_SESSION_INFO")
    let enrolled = try await v2(
      "mfaEnrollment:finalize",
      [
        "idToken": idToken, "displayName": "Work phone",
        "phoneVerificationInfo": ["sessionInfo": enrollment, "code": try await listedCode(enrollment)],
      ])
    #expect(enrolled.status == 200 && enrolled.json["idToken"] != nil)

    // The password alone now asks for the SMS factor.
    let challenged = try await clientCall(
      "signInWithPassword", ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true])
    let pending = try #require(challenged.json["mfaPendingCredential"] as? String, "\(challenged.json)")
    let factor = try #require((challenged.json["mfaInfo"] as? [[String: Any]])?.first)
    #expect(factor["phoneInfo"] != nil && factor["displayName"] as? String == "Work phone")
    let enrollmentID = try #require(factor["mfaEnrollmentId"] as? String)
    let texted = try await v2(
      "mfaSignIn:start", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "phoneSignInInfo": [:]])
    let sessionInfo = try #require((texted.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String)
    let code = try await listedCode(sessionInfo)
    let wrong = try await v2(
      "mfaSignIn:finalize",
      [
        "mfaPendingCredential": pending,
        "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code == "000000" ? "111111" : "000000"],
      ])
    #expect(Self.message(wrong.json) == "INVALID_CODE")
    let finished = try await v2(
      "mfaSignIn:finalize",
      ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
    let token = try JSONWebToken(decoding: try #require(finished.json["idToken"] as? String, "\(finished.json)"))
    #expect(token.subject == uid)
    // The pending sign-in is spent with its code.
    let again = try await v2(
      "mfaSignIn:finalize",
      ["mfaPendingCredential": pending, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
    #expect(again.status == 400)
  }
}
