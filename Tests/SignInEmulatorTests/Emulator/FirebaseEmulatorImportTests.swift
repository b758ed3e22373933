import Foundation
import SignInCrypto
import Testing

@testable import SignInEmulator
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
    let stored = try #require(
      try await backend.administering({ try $0.adminLookup(uids: ["imported-1"], emails: []) }).first)
    #expect(stored.createdAt == Date(timeIntervalSince1970: 1_700_000_000) && stored.emailVerified)
    let federated = try #require(
      try await backend.administering({ try $0.adminLookup(uids: ["imported-2"], emails: []) }).first)
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
    #expect(try await backend.administering({ try $0.adminLookup(uids: ["new-1"], emails: []) }).first != nil)
    for refused in ["new-2", "new-3", "new-4"] {
      #expect(try await backend.administering({ try $0.adminLookup(uids: [refused], emails: []) }).isEmpty)
    }
    // With allowOverwrite, an existing uid is replaced.
    let overwrite = try await admin.call(
      batchCreate, ["allowOverwrite": true, "users": [["localId": "taken", "displayName": "Replaced"]]])
    #expect((overwrite.json["error"] as? [Any])?.isEmpty == true)
    #expect(
      try await backend.administering({ try $0.adminLookup(uids: ["taken"], emails: []) }).first?.displayName
        == "Replaced")
  }

  @Test func anAlgorithmThatCannotBeVerifiedRefusesTheWholeUploadWithTheFix() async throws {
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "HMAC_MD5", "signerKey": "a2V5",
        "users": [["localId": "u1", "email": "u1@example.com", "passwordHash": "aGFzaA"]],
      ])
    #expect(reply.status == 400)
    let message = try #require(FirebaseEmulatorAdminTests.message(reply.json))
    #expect(message.hasPrefix("UNSUPPORTED_HASH_ALGORITHM"))
    #expect(message.contains("STANDARD_SCRYPT") && message.contains("HMAC_SHA256"))
    #expect(try await admin.routes.backend.administering({ try $0.adminLookup(uids: ["u1"], emails: []) }).isEmpty)
    let empty = try await admin.call(batchCreate, ["users": []])
    #expect(FirebaseEmulatorAdminTests.message(empty.json) == "MISSING_USER_ACCOUNT")
    let keyless = try await admin.call(
      batchCreate, ["hashAlgorithm": "HMAC_SHA256", "users": [["localId": "u2", "passwordHash": "aGFzaA"]]])
    #expect(
      FirebaseEmulatorAdminTests.message(keyless.json) == "INVALID_ARGUMENT : signerKey is required for HMAC_SHA256")
  }

  /// The example of Firebase's modified scrypt that Firebase publishes with its reference
  /// implementation (firebase/scrypt): a project's hash parameters and one user's hash.
  @Test func firebaseScryptHashesFromAnotherProjectVerifyAndAreMadeAgainOnSignIn() async throws {
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14, "saltSeparator": "Bw==",
        "signerKey": "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
        "users": [
          [
            "localId": "migrated", "email": "user1@example.com", "salt": "42xEC+ixf3L2lw==",
            "passwordHash": "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
          ]
        ],
      ])
    #expect(reply.status == 200 && (reply.json["error"] as? [Any])?.isEmpty == true)
    let backend = admin.routes.backend
    await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "user1@example.com", password: "user1passworD"))
    }
    let session = try await backend.signInWithPassword(.init(email: "user1@example.com", password: "user1password"))
    #expect(session.localID == "migrated")
    // Verified once, the password is kept with this backend's own hash from then on.
    let stored = try #require(
      try await backend.administering({ try $0.adminLookup(uids: ["migrated"], emails: []) }).first)
    #expect(stored.password?.algorithm == .scrypt && stored.password?.key == nil)
    _ = try await backend.signInWithPassword(.init(email: "user1@example.com", password: "user1password"))
  }

  @Test func hmacHashesVerifyWithTheirKeyAndEitherOrder() async throws {
    let key = Array("the project's hmac key".utf8)
    let salt = Array("NaCl".utf8)
    let password = Array("hmac secret".utf8)
    let cases: [(String, String?, [UInt8])] = [
      ("HMAC_SHA256", nil, Crypto.hmacSHA256(key: key, data: password + salt)),
      ("HMAC_SHA256", "SALT_AND_PASSWORD", Crypto.hmacSHA256(key: key, data: salt + password)),
      ("HMAC_SHA1", "PASSWORD_AND_SALT", Crypto.hmacSHA1(key: key, data: password + salt)),
      ("HMAC_SHA512", nil, Crypto.hmacSHA512(key: key, data: password + salt)),
    ]
    for (index, (algorithm, order, hash)) in cases.enumerated() {
      var body: [String: Any] = [
        "hashAlgorithm": algorithm, "signerKey": Data(key).base64EncodedString(),
        "users": [
          [
            "localId": "h-\(index)", "email": "h\(index)@example.com", "salt": Data(salt).base64EncodedString(),
            "passwordHash": Data(hash).base64EncodedString(),
          ]
        ],
      ]
      if let order { body["passwordHashOrder"] = order }
      let reply = try await admin.call(batchCreate, body)
      #expect(reply.status == 200, "\(algorithm) \(order ?? "")")
      let session = try await admin.routes.backend.signInWithPassword(
        .init(email: "h\(index)@example.com", password: "hmac secret"))
      #expect(session.localID == "h-\(index)")
    }
  }

  /// Digests with rounds, as another system made them (computed with Python's hashlib): the salt
  /// first unless the upload says `PASSWORD_AND_SALT`, then the digest of the digest until the
  /// rounds are done; MD5's 0 rounds is one digest. Each is made again with scrypt on sign-in.
  @Test func md5AndSHAHashesWithRoundsVerifyInEitherOrder() async throws {
    let cases: [(algorithm: String, rounds: Int, order: String?, hash: String)] = [
      ("SHA256", 3, nil, "hSOoXvL1cDOWMP6VxOsrdO9qv+cR/xeNa4RsAlEBk3w="),
      (
        "SHA512", 1, "SALT_AND_PASSWORD",
        "4IdaenA5cN2AZMoR0rnpk8WGwSlhiitcbUzmUBLT5xl6QkBdyfrgySC9Y6m6UmeYUA5iRt0+CZ1dDFAbCVUfNg=="
      ),
      ("SHA1", 2, "PASSWORD_AND_SALT", "2G5pmr7ywgkLGsXtmxg8/WKk128="),
      ("MD5", 0, nil, "2JfMVOlP4z5No5hZnL377A=="),
    ]
    let backend = admin.routes.backend
    for (index, entry) in cases.enumerated() {
      var body: [String: Any] = [
        "hashAlgorithm": entry.algorithm, "rounds": entry.rounds,
        "users": [
          ["localId": "d-\(index)", "email": "d\(index)@example.com", "salt": "TmFDbA==", "passwordHash": entry.hash]
        ],
      ]
      body["passwordHashOrder"] = entry.order
      let reply = try await admin.call(batchCreate, body)
      #expect(
        reply.status == 200 && ((reply.json["error"] as? [Any])?.isEmpty ?? true), "\(entry.algorithm): \(reply.json)")
      await #expect(throws: AuthError.self, "\(entry.algorithm): a wrong password") {
        _ = try await backend.signInWithPassword(.init(email: "d\(index)@example.com", password: "wrong horse"))
      }
      let session = try await backend.signInWithPassword(
        .init(email: "d\(index)@example.com", password: "correct horse"))
      #expect(session.localID == "d-\(index)", "\(entry.algorithm)")
      #expect(
        try await backend.administering({ try $0.adminLookup(uids: ["d-\(index)"], emails: []) }).first?.password?
          .algorithm == .scrypt)
    }
    let zero = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "SHA256", "rounds": 0,
        "users": [["localId": "z", "passwordHash": "aGFzaA", "salt": "TmFDbA=="]],
      ])
    #expect(zero.status == 400)
    #expect(FirebaseEmulatorAdminTests.message(zero.json)?.contains("rounds") == true)
    let many = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "MD5", "rounds": 8193,
        "users": [["localId": "z", "passwordHash": "aGFzaA", "salt": "TmFDbA=="]],
      ])
    #expect(many.status == 400)
  }

  /// RFC 6070's PBKDF2-HMAC-SHA1 example ("password", salt "salt", 4096 rounds, 20 bytes).
  @Test func pbkdfSHA1HashesVerifyFromThePublishedExample() async throws {
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "PBKDF_SHA1", "rounds": 4096,
        "users": [
          [
            "localId": "p-1", "email": "p1@example.com", "salt": Data("salt".utf8).base64EncodedString(),
            "passwordHash": "SwB5AbdlSJq+rUnZJvch0GWkKcE=",
          ]
        ],
      ])
    #expect(reply.status == 200)
    let backend = admin.routes.backend
    #expect(try await backend.signInWithPassword(.init(email: "p1@example.com", password: "password")).localID == "p-1")
    #expect(
      try await backend.administering({ try $0.adminLookup(uids: ["p-1"], emails: []) }).first?.password?.algorithm
        == .scrypt)
  }

  /// A vector of the bcrypt test suites ("U*U" at cost 5), exported as another system would.
  @Test(.enabled(if: Bcrypt.isAvailable)) func bcryptHashesVerifyAndAreMadeAgainOnSignIn() async throws {
    let bcrypt = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "BCRYPT",
        "users": [
          ["localId": "b-1", "email": "b1@example.com", "passwordHash": Data(bcrypt.utf8).base64EncodedString()]
        ],
      ])
    #expect(reply.status == 200 && (reply.json["error"] as? [Any])?.isEmpty == true)
    let backend = admin.routes.backend
    await #expect(throws: AuthError.self) {
      try await backend.signInWithPassword(.init(email: "b1@example.com", password: "U*V"))
    }
    #expect(try await backend.signInWithPassword(.init(email: "b1@example.com", password: "U*U")).localID == "b-1")
    #expect(
      try await backend.administering({ try $0.adminLookup(uids: ["b-1"], emails: []) }).first?.password?.algorithm
        == .scrypt)
    let malformed = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "BCRYPT",
        "users": [["localId": "b-2", "passwordHash": Data("nope".utf8).base64EncodedString()]],
      ])
    #expect(malformed.status == 400)
    #expect(FirebaseEmulatorAdminTests.message(malformed.json)?.hasPrefix("INVALID_ARGUMENT : a BCRYPT") == true)
  }

  /// Review N2: a hash too costly to check (bcrypt cost 31 is hours a check, scrypt gigabytes,
  /// PBKDF2 millions of rounds) is refused, the ceiling named, and nothing stored.
  @Test(arguments: [
    (["hashAlgorithm": "PBKDF2_SHA256", "rounds": 10_000_000] as [String: any Sendable], "rounds"),
    (["hashAlgorithm": "PBKDF_SHA1", "rounds": 120_001], "rounds"),
    (
      ["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 20, "blockSize": 64, "parallelization": 1, "dkLen": 64],
      "at most 64 MiB"
    ),
    (
      ["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 14, "blockSize": 8, "parallelization": 64, "dkLen": 64],
      "parallelization"
    ),
    // Review V: RFC 7914's N < 2^(16r); r = 1 with N = 2^16 was stored, and every sign-in was a 500.
    (
      ["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 16, "blockSize": 1, "parallelization": 1, "dkLen": 64],
      "less than 2^(16 × blockSize)"
    ),
  ])
  func aHashTooCostlyToCheckIsRefused(_ parameters: [String: any Sendable], _ named: String) async throws {
    var body: [String: Any] = parameters
    body["users"] = [["localId": "c-1", "passwordHash": "AAAA", "salt": "AAAA"]]
    let reply = try await admin.call(batchCreate, body)
    #expect(reply.status == 400)
    let message = FirebaseEmulatorAdminTests.message(reply.json) ?? ""
    #expect(message.hasPrefix("INVALID_ARGUMENT") && message.contains(named), "\(message)")
    #expect(try await admin.routes.backend.administering({ try $0.adminLookup(uids: ["c-1"], emails: []) }).isEmpty)
  }

  @Test(.enabled(if: Bcrypt.isAvailable)) func aBcryptHashAboveCost14IsRefused() async throws {
    let slow = "$2b$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    let reply = try await admin.call(
      batchCreate,
      [
        "hashAlgorithm": "BCRYPT",
        "users": [["localId": "b-9", "passwordHash": Data(slow.utf8).base64EncodedString()]],
      ])
    #expect(reply.status == 400)
    #expect(FirebaseEmulatorAdminTests.message(reply.json)?.contains("cost of at most 14; this one has 31") == true)
    #expect(try await admin.routes.backend.administering({ try $0.adminLookup(uids: ["b-9"], emails: []) }).isEmpty)
  }
}
