import Foundation
import SignInEmbeddedTestSupport
import SignInFoundation
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// Review N6: every field has a length limit on every path that stores it, so the caps that
/// count rows bound bytes too. An unauthenticated `sendOobCode` with a 1 MB address once stored
/// about 5.8 MB.
@Suite struct FieldLimitsTests {
  let backend: EmbeddedBackend
  static let link = ActionCodeSettings(continueURL: URL(string: "https://example.com/done"), handlesCodeInApp: true)

  init() throws { backend = try EmbeddedTestBackend.backend() }

  static func email(bytes: Int) -> String {
    String(repeating: "a", count: bytes - "@example.com".utf8.count) + "@example.com"
  }

  func refusal(_ body: () async throws -> Void) async -> String? {
    await EmbeddedBackendCustomTokenTests.refusal(body)
  }

  @Test func aMegabyteAddressIsRefusedAndNothingIsStored() async throws {
    let huge = Self.email(bytes: 1 << 20)
    #expect(
      await refusal { _ = try await backend.sendOobCode(.emailSignIn(email: huge), settings: Self.link) }
        == "INVALID_EMAIL")
    #expect(await backend.mailbox(for: huge).isEmpty)
    #expect(try await backend.storedActionCodeCount() == 0)
  }

  @Test func anEmailOf254BytesIsTheLongestThatSignsUp() async throws {
    _ = try await backend.signUp(SignUpRequest(email: Self.email(bytes: 254), password: "secret1"))
    #expect(
      await refusal { _ = try await backend.signUp(SignUpRequest(email: Self.email(bytes: 255), password: "secret1")) }
        == "INVALID_EMAIL")
  }

  @Test func aPasswordLongerThan4096CharactersIsRefusedWithThePolicysError() async throws {
    let long = String(repeating: "p", count: 4_097)
    let code = await refusal { _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: long)) }
    #expect(code == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS")
    _ = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: String(long.dropLast())))
  }

  @Test func aLongDisplayNameOrPhotoURLIsRefusedByTheClientAndTheAdminAPI() async throws {
    let ada = try await backend.signUp(SignUpRequest(email: "ada@example.com", password: "secret1"))
    let longName = String(repeating: "n", count: 257)
    let longPhoto = URL(string: "https://example.com/" + String(repeating: "p", count: 2_048))!
    #expect(
      await refusal {
        _ = try await backend.update(UpdateAccountRequest(idToken: ada.tokens.idToken, displayName: longName))
      } == "INVALID_ARGUMENT")
    #expect(
      await refusal {
        _ = try await backend.update(UpdateAccountRequest(idToken: ada.tokens.idToken, photoURL: longPhoto))
      } == "INVALID_ARGUMENT")
    #expect(
      await refusal {
        var changes = AdminAccountChanges()
        changes.displayName = longName
        let update = changes
        _ = try await backend.administering({ try $0.adminUpdate(uid: ada.localID, update) })
      } == "INVALID_ARGUMENT")
    _ = try await backend.update(
      UpdateAccountRequest(idToken: ada.tokens.idToken, displayName: String(longName.dropLast())))
    #expect(try await backend.storedAccount(uid: ada.localID)?.displayName?.count == 256)
  }

  // MARK: Review V: limits bypassed on other paths

  func emulatorLike() throws -> EmbeddedBackend {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedIdPTokens = true
    configuration.acceptUnsignedCustomTokens = true
    return try EmbeddedTestBackend.backend(configuration)
  }

  static func idToken(_ claims: [String: JSONValue]) throws -> String {
    String(decoding: try JSONEncoder().encode(JSONValue.object(claims)), as: UTF8.self)
  }

  @Test func anIdentityProvidersOversizedClaimsAreRefusedAndNothingIsStored() async throws {
    let backend = try emulatorLike()
    let huge = String(repeating: "n", count: 900_000)
    let cases: [[String: JSONValue]] = [
      ["sub": .string("g-1"), "name": .string(huge)],
      ["sub": .string("g-1"), "email": .string(Self.email(bytes: 300))],
      ["sub": .string("g-1"), "picture": .string("https://example.com/" + huge)],
      ["sub": .string(String(repeating: "s", count: 257))],
      ["sub": .string("g-\u{0}1")],
    ]
    for claims in cases {
      let token = try Self.idToken(claims)
      let code = await refusal {
        _ = try await backend.signInWithIdp(.init(credential: .init(providerID: .google, idToken: token)))
      }
      #expect(code?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(claims.keys.sorted()): \(code ?? "signed in")")
    }
    #expect(try await backend.administering({ try $0.adminList(maxResults: 10, after: nil) }).0.isEmpty)
  }

  @Test func customTokenClaimsPastAThousandBytesAreRefused() async throws {
    let backend = try emulatorLike()
    let claims = #"{"blob":"\#(String(repeating: "x", count: 1_000))"}"#
    #expect(
      await refusal {
        _ = try await backend.signInWithCustomToken(
          CustomTokenSignInRequest(token: #"{"uid":"u1","claims":\#(claims)}"#))
      } == "CLAIMS_TOO_LARGE")
    _ = try await backend.signInWithCustomToken(
      CustomTokenSignInRequest(token: #"{"uid":"u1","claims":{"premium":true}}"#))
  }

  @Test func aContinueURLPast2048BytesIsRefusedBeforeAnyCodeIsStored() async throws {
    let long = URL(string: "https://example.com/" + String(repeating: "c", count: 2_048))!
    let settings = ActionCodeSettings(continueURL: long, handlesCodeInApp: true)
    let code = await refusal {
      _ = try await backend.sendOobCode(.emailSignIn(email: "ada@example.com"), settings: settings)
    }
    #expect(code == "INVALID_CONTINUE_URI")
    #expect(try await backend.storedActionCodeCount() == 0)
  }

  @Test func anEmailWithAControlCharacterIsRefused() async throws {
    for address in ["ada\u{0}@example.com", "ada@exam\nple.com", "ada\u{7F}@example.com"] {
      #expect(
        await refusal { _ = try await backend.signUp(SignUpRequest(email: address, password: "secret1")) }
          == "INVALID_EMAIL")
    }
  }

  @Test func aTenantOrProviderConfigPastItsLimitsIsRefused() async throws {
    func json(_ object: [String: JSONValue]) throws -> Data { try JSONEncoder().encode(JSONValue.object(object)) }
    let name = try json(["displayName": .string(String(repeating: "t", count: 257))])
    #expect(
      await refusal { _ = try await backend.settings { try $0.add("tenant", key: "t1", value: name, limit: 10) } }
        == "INVALID_ARGUMENT")
    let clientID = try json(["clientId": .string(String(repeating: "c", count: 2_049))])
    #expect(
      await refusal { _ = try await backend.settings { try $0.add("oidc", key: "oidc.a", value: clientID, limit: 10) } }
        == "INVALID_ARGUMENT")
    let certificate: JSONValue = .object(["x509Certificate": .string(String(repeating: "A", count: 16_385))])
    let saml = try json(["idpConfig": .object(["idpCertificates": .array([certificate])])])
    #expect(
      await refusal { _ = try await backend.settings { try $0.add("saml", key: "saml.a", value: saml, limit: 10) } }
        == "INVALID_ARGUMENT")
    let many = try json([
      "idpConfig": .object([
        "idpCertificates": .array(Array(repeating: .object(["x509Certificate": .string("MIIC")]), count: 11))
      ])
    ])
    #expect(
      await refusal { _ = try await backend.settings { try $0.add("saml", key: "saml.b", value: many, limit: 10) } }
        == "INVALID_ARGUMENT")
    #expect(try await backend.settings { try $0.all("saml") }.isEmpty)
    // Within the limits, kept.
    let fine = try json(["displayName": .string("Acme"), "clientId": .string("client-1")])
    #expect(try await backend.settings { try $0.add("oidc", key: "oidc.b", value: fine, limit: 10) } == .added)
  }
}
