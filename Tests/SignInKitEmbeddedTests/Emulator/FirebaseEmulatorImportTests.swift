import Foundation
import SignInCrypto
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// `accounts:batchCreate`, the Admin SDKs' `import_users`: one upload, one transaction.
@Suite struct FirebaseEmulatorImportTests {
  let admin: FirebaseEmulatorAdminTests

  init() throws { admin = try FirebaseEmulatorAdminTests() }

  var batchCreate: String { "\(FirebaseEmulatorAdminTests.projectURL)/accounts:batchCreate" }

  static func pbkdf2(_ password: String, salt: [UInt8]) throws -> String {
    Data(try Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: 1000, length: 32))
      .base64EncodedString()
  }

  @Test func importsAnUploadAndItsPasswordsVerify() async throws {
    let salt = Array("salt-of-the-user".utf8)
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "PBKDF2_SHA256", "rounds": 1000,
        "users": [
          [
            "localId": "imported-1", "email": "Imported@Example.com", "emailVerified": true,
            "passwordHash": try Self.pbkdf2("imported secret", salt: salt),
            "salt": Data(salt).base64EncodedString(), "createdAt": "1700000000000",
          ],
          [
            "localId": "imported-2",
            "providerUserInfo": [["providerId": "google.com", "rawId": "google-sub", "email": "g@example.com"]],
            "customAttributes": #"{"role":"editor"}"#,
          ],
        ],
      ])
    #expect(reply.status == 200)
    #expect(reply.json["kind"] as? String == "identitytoolkit#UploadAccountResponse")
    #expect((reply.json["error"] as? [Any])?.isEmpty == true)
    let backend = admin.routes.backend
    let session = try await backend.signInWithPassword(
      .init(email: "imported@example.com", password: "imported secret"))
    #expect(session.localID == "imported-1")
    let stored = try #require(try await backend.storedAccount(uid: "imported-1"))
    #expect(stored.createdAt == Date(timeIntervalSince1970: 1_700_000_000) && stored.emailVerified)
    let federated = try #require(try await backend.storedAccount(uid: "imported-2"))
    #expect(federated.federated.map(\.rawID) == ["google-sub"])
    #expect(federated.customClaims == ["role": .string("editor")])
  }

  @Test func aRefusedUserIsListedByIndexAndTheOthersAreStored() async throws {
    _ = try await admin.call(
      "\(FirebaseEmulatorAdminTests.projectURL)/accounts", ["localId": "taken", "email": "ada@example.com"])
    let reply = try await admin.call(
      batchCreate,
      [
        "users": [
          ["localId": "new-1", "email": "new@example.com"],
          ["localId": "taken"],
          ["localId": "new-2", "email": "ada@example.com"],
          ["localId": "new-3", "customAttributes": #"{"sub":"x"}"#],
          ["localId": "new-4", "email": "not an email"],
        ]
      ])
    #expect(reply.status == 200)
    let errors = try #require(reply.json["error"] as? [[String: Any]])
    #expect(errors.compactMap { $0["index"] as? Int } == [1, 2, 3, 4])
    #expect(errors.first?["message"] as? String == "localId belongs to an existing account - can not overwrite.")
    #expect(errors[2]["message"] as? String == "Custom claims provided include a reserved claim.")
    let backend = admin.routes.backend
    #expect(try await backend.storedAccount(uid: "new-1") != nil)
    for refused in ["new-2", "new-3", "new-4"] { #expect(try await backend.storedAccount(uid: refused) == nil) }
    // With allowOverwrite, an existing uid is replaced.
    let overwrite = try await admin.call(
      batchCreate, ["allowOverwrite": true, "users": [["localId": "taken", "displayName": "Replaced"]]])
    #expect((overwrite.json["error"] as? [Any])?.isEmpty == true)
    #expect(try await backend.storedAccount(uid: "taken")?.displayName == "Replaced")
  }

  @Test func anAlgorithmThatCannotBeVerifiedRefusesTheWholeUploadWithTheFix() async throws {
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "HMAC_SHA256", "signerKey": "a2V5",
        "users": [["localId": "u1", "email": "u1@example.com", "passwordHash": "aGFzaA"]],
      ])
    #expect(reply.status == 400)
    let message = try #require(FirebaseEmulatorAdminTests.message(reply.json))
    #expect(message.hasPrefix("UNSUPPORTED_HASH_ALGORITHM"))
    #expect(message.contains("STANDARD_SCRYPT"))
    #expect(try await admin.routes.backend.storedAccount(uid: "u1") == nil)
    let empty = try await admin.call(batchCreate, ["users": []])
    #expect(FirebaseEmulatorAdminTests.message(empty.json) == "MISSING_USER_ACCOUNT")
  }
}
