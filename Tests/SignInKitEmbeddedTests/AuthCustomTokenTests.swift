import Foundation
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInFoundation
import SignInKitTesting
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// `Auth.signIn(customToken:)`, `idTokenResult(forceRefresh:)` and `User.isAnonymous` against the
/// embedded backend, with custom tokens a trusted service account signs.
@Suite(.timeLimit(.minutes(3)))
struct AuthCustomTokenTests {
  static let email = "minter@demo.iam.gserviceaccount.com"
  static let key = try! RSAPrivateKey.generate()

  let backend: EmbeddedBackend
  let auth: Auth

  init() throws {
    var configuration = EmbeddedTestBackend.fast
    configuration.trustedServiceAccounts = [
      TrustedServiceAccount(clientEmail: Self.email, publicKeyPEM: try Self.key.publicKey.pem)
    ]
    backend = try EmbeddedBackend(directory: nil, configuration: configuration)
    auth = Auth(backend: backend, store: InMemorySessionStore(), clock: ManualClock())
  }

  static func customToken(uid: String, claims: [String: JSONValue]? = nil) throws -> String {
    let now = Date().timeIntervalSince1970.rounded(.down)
    var payload: [String: JSONValue] = [
      "iss": .string(email), "sub": .string(email), "aud": .string(EmbeddedBackend.customTokenAudience),
      "uid": .string(uid), "iat": .number(now), "exp": .number(now + 3600),
    ]
    payload["claims"] = claims.map(JSONValue.object)
    return try JSONWebToken.signed(claims: payload, key: key, kid: nil)
  }

  @Test func signsInTheNamedUserWhoIsNotAnonymousAndCarriesTheTokensClaims() async throws {
    let result = try await auth.signIn(
      customToken: try Self.customToken(uid: "server-user-1", claims: ["plan": .string("pro")]))
    #expect(result.user.uid == "server-user-1" && result.isNewUser)
    #expect(result.providerID == .custom)
    #expect(!result.user.isAnonymous, "no email and no provider, but not anonymous")
    #expect(auth.currentUser?.isAnonymous == false)

    let details = try await auth.idTokenResult()
    #expect(details.signInProvider == .custom)
    #expect(details.claims["plan"] == .string("pro"))
    #expect(details.claims["sub"]?.string == "server-user-1")
    #expect(details.expirationDate.timeIntervalSince(details.issuedAt) == 3600)
    #expect(details.authTime != nil)
    #expect(!details.description.contains(details.token))

    let again = try await auth.signIn(customToken: try Self.customToken(uid: "server-user-1"))
    #expect(!again.isNewUser)
    await auth.shutdown()
  }

  @Test func customClaimsAnAdministratorSetsShowAfterAForcedRefresh() async throws {
    let signedIn = try await auth.signUp(email: "ada@example.com", password: "correct horse")
    var changes = AdminAccountChanges()
    changes.customAttributes = #"{"admin":true,"groups":["a","b"]}"#
    let update = changes
    _ = try await backend.administering({ try $0.adminUpdate(uid: signedIn.user.uid, update) })
    #expect(try await auth.idTokenResult().claims["admin"] == nil, "the held token predates the claims")
    let refreshed = try await auth.idTokenResult(forceRefresh: true)
    #expect(refreshed.claims["admin"] == .bool(true))
    #expect(refreshed.claims["groups"] == .array([.string("a"), .string("b")]))
    #expect(refreshed.signInProvider == .password)
    #expect(ClaimValue.object(["a": .array([.number(1), .null])]).description == #"{"a":[1,null]}"#)
    await auth.shutdown()
  }

  @Test func aRefusedCustomTokenLeavesTheSignedInUserAndSaysWhy() async throws {
    let first = try await auth.signIn(customToken: try Self.customToken(uid: "kept"))
    let stranger = try RSAPrivateKey.generate()
    let now = Date().timeIntervalSince1970
    let forged = try JSONWebToken.signed(
      claims: [
        "iss": .string(Self.email), "sub": .string(Self.email), "uid": .string("intruder"),
        "aud": .string(EmbeddedBackend.customTokenAudience), "iat": .number(now), "exp": .number(now + 60),
      ], key: stranger, kid: nil)
    let error = try await #require(throws: AuthError.self) { try await auth.signIn(customToken: forged) }
    #expect(error.code == .invalidCustomToken)
    #expect(error.message.contains("signature"))
    #expect(auth.currentUser?.uid == first.user.uid)
    await auth.shutdown()
  }

  @Test func anAnonymousUserStopsBeingAnonymousOnceACredentialIsLinked() async throws {
    let anonymous = try await auth.signInAnonymously()
    #expect(anonymous.user.isAnonymous)
    _ = try await auth.reload()
    #expect(auth.currentUser?.isAnonymous == true, "a reload keeps it anonymous")
    let linked = try await auth.linkEmail("ada@example.com", password: "secret1")
    #expect(!linked.user.isAnonymous && linked.user.uid == anonymous.user.uid)
    await auth.shutdown()

    // A session stored before the flag existed falls back to "no credential".
    let old = try JSONDecoder().decode(
      User.self, from: Data(#"{"uid":"u1","emailVerified":false,"providers":[]}"#.utf8))
    #expect(old.isAnonymous)
  }
}
