import Foundation
import SignInConcurrency
import SignInCrypto
import SignInEmbeddedTestSupport
import SignInFoundation
import Testing

@testable import SignInKit
@testable import SignInKitEmbedded

/// `signInWithCustomToken`: unsigned tokens only where the emulator setting allows them, signed
/// ones only from a trusted service account.
@Suite struct EmbeddedBackendCustomTokenTests {
  static let email = "minter@project.iam.gserviceaccount.com"
  static let key = try! RSAPrivateKey.generate()

  let clock = TestDate()

  func backend(unsigned: Bool = false, trusting key: RSAPrivateKey = key) throws -> EmbeddedBackend {
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedCustomTokens = unsigned
    configuration.trustedServiceAccounts = [
      TrustedServiceAccount(clientEmail: Self.email, publicKeyPEM: try key.publicKey.pem)
    ]
    return try EmbeddedTestBackend.backend(configuration, clock: clock)
  }

  func signed(
    uid: String = "user-1", claims: [String: JSONValue]? = nil, lifetime: TimeInterval = 3600,
    issuer: String = email, audience: String = EmbeddedBackend.customTokenAudience, key: RSAPrivateKey = key
  ) throws -> String {
    let now = clock.now.timeIntervalSince1970
    var payload: [String: JSONValue] = [
      "iss": .string(issuer), "sub": .string(issuer), "aud": .string(audience), "uid": .string(uid),
      "iat": .number(now), "exp": .number(now + lifetime),
    ]
    payload["claims"] = claims.map(JSONValue.object)
    return try JSONWebToken.signed(claims: payload, key: key, kid: "k1")
  }

  static func unsigned(_ payload: String) -> String {
    "\(Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))).\(Base64URL.encode(Array(payload.utf8)))."
  }

  static func refusal(_ work: () async throws -> Void) async -> String? {
    do {
      try await work()
      return nil
    } catch {
      return AuthError.wrapping(error).serverMessage
    }
  }

  @Test func aTrustedServiceAccountsTokenSignsInAndItsClaimsStayAcrossRefreshes() async throws {
    let backend = try backend()
    let first = try await backend.signInWithCustomToken(
      CustomTokenSignInRequest(token: try signed(claims: ["premium": .bool(true)])))
    #expect(first.isNewUser && first.localID == "user-1")
    let token = try JSONWebToken(decoding: first.tokens.idToken)
    #expect(token.claims["premium"] == .bool(true))
    #expect(token.claims["firebase"]?.object?["sign_in_provider"] == .string("custom"))
    let refreshed = try await backend.refresh(RefreshTokenRequest(refreshToken: first.tokens.refreshToken))
    #expect(try JSONWebToken(decoding: refreshed.tokens.idToken).claims["premium"] == .bool(true))
    let second = try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: try signed()))
    #expect(!second.isNewUser && second.localID == "user-1")
  }

  /// Review V: as the Firebase emulator, which verifies no signature, an emulator-mode backend
  /// takes a custom token of a service account it was not given, and says so; a trusted
  /// account's token is still checked.
  @Test func anEmulatorTakesAnUnknownServiceAccountsTokenAndSaysItWasNotChecked() async throws {
    let told = Locked<[String]>([])
    var configuration = EmbeddedTestBackend.fast
    configuration.acceptUnsignedCustomTokens = true
    configuration.trustedServiceAccounts = [
      TrustedServiceAccount(clientEmail: Self.email, publicKeyPEM: try Self.key.publicKey.pem)
    ]
    configuration.unverifiedCustomTokenAccepted = { issuer in told.withLock { $0.append(issuer) } }
    let backend = try EmbeddedTestBackend.backend(configuration, clock: clock)
    let stranger = "someone@else.iam.gserviceaccount.com"
    let signedIn = try await backend.signInWithCustomToken(
      CustomTokenSignInRequest(token: try signed(issuer: stranger, key: try RSAPrivateKey.generate())))
    #expect(signedIn.localID == "user-1")
    #expect(told.withLock { $0 } == [stranger])
    // The trusted account's own key is still checked.
    #expect(
      await Self.refusal {
        _ = try await backend.signInWithCustomToken(
          CustomTokenSignInRequest(token: try signed(key: try RSAPrivateKey.generate())))
      } == "INVALID_CUSTOM_TOKEN : the signature does not verify")
  }

  @Test func refusesSignedTokensThatAreForgedExpiredTooLongOrForAnotherAudience() async throws {
    let backend = try backend()
    let stranger = try RSAPrivateKey.generate()
    let cases: [(String, String)] = [
      (try signed(key: stranger), "INVALID_CUSTOM_TOKEN : the signature does not verify"),
      (try signed(issuer: "someone@else.iam.gserviceaccount.com"), "INVALID_CUSTOM_TOKEN : no trusted service account"),
      (try signed(lifetime: 3601), "INVALID_CUSTOM_TOKEN : iat and exp must be at most an hour apart"),
      (try signed(audience: "signinkit-local"), "INVALID_CUSTOM_TOKEN : the audience"),
      (try signed(uid: ""), "INVALID_CUSTOM_TOKEN : uid must be"),
      (try signed(claims: ["sub": .string("x")]), "FORBIDDEN_CLAIM : sub"),
      (
        Self.unsigned(#"{"uid":"u","aud":"\#(EmbeddedBackend.customTokenAudience)"}"#),
        "INVALID_CUSTOM_TOKEN : this backend accepts only signed custom tokens"
      ),
      (#"{"uid":"u"}"#, "INVALID_CUSTOM_TOKEN : this backend accepts only signed custom tokens"),
      ("not a token", "INVALID_CUSTOM_TOKEN : the token is not a JWT or a JSON object"),
      ("", "MISSING_CUSTOM_TOKEN"),
    ]
    for (token, expected) in cases {
      let message = await Self.refusal {
        _ = try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: token))
      }
      #expect(message?.hasPrefix(expected) == true, "\(expected): got \(message ?? "success")")
    }
    let expiring = try signed(lifetime: 60)
    clock.advance(61)
    let expired = await Self.refusal {
      _ = try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: expiring))
    }
    #expect(expired == "INVALID_CUSTOM_TOKEN : the token has expired")
    #expect(try await backend.administering({ try $0.adminLookup(uids: ["user-1", "u"], emails: []) }).isEmpty)
  }

  @Test func theEmulatorSettingAcceptsUnsignedTokensAndBareJSON() async throws {
    let backend = try backend(unsigned: true)
    let jwt = Self.unsigned(
      #"{"uid":"jwt-user","aud":"\#(EmbeddedBackend.customTokenAudience)","claims":{"tier":2}}"#)
    let fromJWT = try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: jwt))
    #expect(fromJWT.localID == "jwt-user")
    #expect(try JSONWebToken(decoding: fromJWT.tokens.idToken).claims["tier"] == .number(2))
    let fromJSON = try await backend.signInWithCustomToken(
      CustomTokenSignInRequest(token: #"{"uid":"json-user","claims":{"admin":true}}"#))
    #expect(fromJSON.localID == "json-user")
    let forbidden = await Self.refusal {
      _ = try await backend.signInWithCustomToken(
        CustomTokenSignInRequest(token: #"{"uid":"u2","claims":{"firebase":{}}}"#))
    }
    #expect(forbidden == "FORBIDDEN_CLAIM : firebase")
    try await backend.setDisabled(true, uid: "json-user")
    let disabled = await Self.refusal {
      _ = try await backend.signInWithCustomToken(CustomTokenSignInRequest(token: #"{"uid":"json-user"}"#))
    }
    #expect(disabled == "USER_DISABLED")
  }

  /// Review N10: a token a tenant-aware Admin SDK made (`tenant_id`) signs in to that tenant
  /// only.
  @Test func aCustomTokenForOneTenantIsRefusedElsewhere() async throws {
    let project = try backend(unsigned: true)
    let acme = try project.tenant("acme")
    let forAcme = #"{"uid":"t-user","tenant_id":"acme"}"#
    #expect(try await acme.signInWithCustomToken(CustomTokenSignInRequest(token: forAcme)).localID == "t-user")
    let atProject = await Self.refusal {
      _ = try await project.signInWithCustomToken(CustomTokenSignInRequest(token: forAcme))
    }
    #expect(atProject?.hasPrefix("TENANT_ID_MISMATCH") == true, "\(atProject ?? "accepted")")
    let other = try project.tenant("other")
    let atOther = await Self.refusal {
      _ = try await other.signInWithCustomToken(CustomTokenSignInRequest(token: forAcme))
    }
    #expect(atOther?.hasPrefix("TENANT_ID_MISMATCH") == true)
    // A token that names no tenant signs in wherever it is sent, as Firebase's.
    #expect(
      try await other.signInWithCustomToken(CustomTokenSignInRequest(token: #"{"uid":"plain"}"#)).localID == "plain")
  }

  @Test func readsAServiceAccountKeyFileAndSaysWhatIsWrongWithABadOne() throws {
    let file = try JSONSerialization.data(withJSONObject: [
      "type": "service_account", "client_email": Self.email, "private_key": Self.key.pem,
    ])
    let account = try TrustedServiceAccount(keyFile: file)
    #expect(account.clientEmail == Self.email)
    #expect(try RSAPublicKey(pem: account.publicKeyPEM) == (try Self.key.publicKey))
    #expect(!account.publicKeyPEM.contains("PRIVATE"))
    for (data, words) in [
      (Data("[]".utf8), "not a JSON object"), (Data(#"{"private_key":"x"}"#.utf8), "no client_email"),
      (Data(#"{"client_email":"a@b","private_key":"x"}"#.utf8), "not an RSA key"),
    ] {
      let error = try #require(throws: AuthError.self) { try TrustedServiceAccount(keyFile: data) }
      #expect(error.code == .misconfigured && error.message.contains(words))
    }
  }
}
