import Foundation
import SignInKit
import SignInKitTesting
import Testing

/// Every `AuthBackend` call of `FirebaseBackend`: the request it sends, rendered as curl text
/// and compared with a golden file, and the parse of a reply shaped like the wire reference's.
/// Set `SIGNINKIT_RECORD_GOLDEN=1` to rewrite the golden files after a deliberate change.
@Suite struct FirebaseBackendWireTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

  static func backend(_ transport: RecordingTransport, emulator: Bool = false) throws -> FirebaseBackend {
    if emulator {
      return try FirebaseBackend.emulator(host: "127.0.0.1:9099", projectID: "demo-project", transport: transport)
    }
    return try FirebaseBackend(
      apiKey: "AIzaTestKey", projectID: "demo-project", appID: "1:1234:ios:abcd", bundleID: "com.example.app",
      languageCode: "fr", transport: transport, environment: [:])
  }

  /// Checks the one request `transport` saw against `Golden/<name>.curl`.
  static func expectGolden(_ name: String, _ transport: RecordingTransport) throws {
    let requests = transport.requests
    try #require(requests.count == 1, "expected one request, saw \(requests.count)")
    let rendered = RecordingTransport.curl(requests[0])
    let file = golden.appendingPathComponent("\(name).curl")
    if ProcessInfo.processInfo.environment["SIGNINKIT_RECORD_GOLDEN"] == "1" {
      try Data(rendered.utf8).write(to: file)
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(rendered == expected, "\(name).curl differs:\n\(rendered)")
  }

  static let tokens = #""idToken":"ID.TOKEN.1","refreshToken":"REFRESH+1/=","expiresIn":"3600""#

  @Test func signUpWithEmailAndPassword() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"kind":"identitytoolkit#SignupNewUserResponse","localId":"uid1","email":"ada@example.com",\#(Self.tokens)}"#)
    ])
    let response = try await Self.backend(transport).signUp(
      SignUpRequest(email: "ada@example.com", password: "pw-123456", displayName: "Ada"))
    try Self.expectGolden("signUp-email", transport)
    #expect(response.localID == "uid1")
    #expect(response.email == "ada@example.com")
    #expect(response.isNewUser)
    #expect(
      response.tokens == IssuedTokens(idToken: "ID.TOKEN.1", refreshToken: "REFRESH+1/=", expiresIn: .seconds(3600)))
  }

  @Test func signUpAnonymouslyOnTheEmulator() async throws {
    let transport = RecordingTransport([.status(200, #"{"localId":"anon1","email":"",\#(Self.tokens)}"#)])
    let response = try await Self.backend(transport, emulator: true).signUp(SignUpRequest())
    try Self.expectGolden("signUp-anonymous-emulator", transport)
    #expect(response.email == nil, "an empty email means none")
  }

  @Test func signUpLinksEmailToTheCurrentUser() async throws {
    let transport = RecordingTransport([.status(200, #"{"localId":"anon1","email":"ada@example.com",\#(Self.tokens)}"#)]
    )
    let response = try await Self.backend(transport).signUp(
      SignUpRequest(email: "ada@example.com", password: "pw-123456", idToken: "CURRENT.ID.TOKEN"))
    try Self.expectGolden("signUp-link", transport)
    #expect(!response.isNewUser)
  }

  @Test func signInWithPassword() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"localId":"uid1","email":"ada@example.com","displayName":"","registered":true,\#(Self.tokens)}"#)
    ])
    let response = try await Self.backend(transport).signInWithPassword(
      PasswordSignInRequest(email: "ada@example.com", password: "pw-123456"))
    try Self.expectGolden("signInWithPassword", transport)
    #expect(response.localID == "uid1")
    #expect(!response.isNewUser)
  }

  @Test func signInWithCustomTokenTakesTheUidFromTheIDToken() async throws {
    let idToken = Self.unsignedJWT(
      #"{"sub":"server-user-1","iat":1800000000,"exp":1800003600,"firebase":{"sign_in_provider":"custom"},"plan":"pro"}"#
    )
    let transport = RecordingTransport([
      .status(
        200,
        #"{"kind":"identitytoolkit#VerifyCustomTokenResponse","idToken":"\#(idToken)","refreshToken":"R1","expiresIn":"3600","isNewUser":true}"#
      )
    ])
    let response = try await Self.backend(transport).signInWithCustomToken(
      CustomTokenSignInRequest(token: "CUSTOM.TOKEN.FROM.SERVER"))
    try Self.expectGolden("signInWithCustomToken", transport)
    #expect(response.localID == "server-user-1" && response.isNewUser)
    let details = try IDTokenResult(token: response.tokens.idToken)
    #expect(details.signInProvider == .custom && details.claims["plan"] == .string("pro"))
    #expect(details.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))

    let refused = RecordingTransport([
      .status(400, #"{"error":{"code":400,"message":"INVALID_CUSTOM_TOKEN : the signature does not verify"}}"#)
    ])
    let error = try await #require(throws: AuthError.self) {
      try await Self.backend(refused).signInWithCustomToken(CustomTokenSignInRequest(token: "CUSTOM.TOKEN.FROM.SERVER"))
    }
    #expect(error.code == .invalidCustomToken && error.serverMessage?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
    #expect(!CustomTokenSignInRequest(token: "secret.token.value").description.contains("secret"))
  }

  /// A JWT with `claims` and no signature, as canned replies carry them.
  static func unsignedJWT(_ claims: String) -> String {
    func part(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    return part(#"{"alg":"none"}"#) + "." + part(claims) + "."
  }

  @Test func signInWithIdpSendsAFormEncodedPostBody() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"federatedId":"https://accounts.google.com/123","providerId":"google.com","localId":"uid2","email":"g@example.com","emailVerified":true,"rawUserInfo":"{\"sub\":\"123\"}","oauthExpireIn":3599,"isNewUser":true,\#(Self.tokens)}"#
      )
    ])
    let credential = ProviderCredential(providerID: .apple, idToken: "header.pay+load.sig", rawNonce: "raw nonce/1")
    let response = try await Self.backend(transport).signInWithIdp(
      IdpSignInRequest(credential: credential, idToken: "CURRENT.ID.TOKEN"))
    try Self.expectGolden("signInWithIdp", transport)
    #expect(response.isNewUser)
    #expect(response.localID == "uid2")
  }

  @Test func refreshUsesTheSecureTokenFormAndSnakeCaseReply() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"access_token":"ID.TOKEN.2","expires_in":"3600","token_type":"Bearer","refresh_token":"REFRESH2","id_token":"ID.TOKEN.2","user_id":"uid1","project_id":"12345"}"#
      )
    ])
    let response = try await Self.backend(transport).refresh(RefreshTokenRequest(refreshToken: "REFRESH+1/="))
    try Self.expectGolden("refresh", transport)
    #expect(response.userID == "uid1")
    #expect(response.tokens == IssuedTokens(idToken: "ID.TOKEN.2", refreshToken: "REFRESH2", expiresIn: .seconds(3600)))
  }

  @Test func refreshKeepsTheOldRefreshTokenWhenNoNewOneComes() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"access_token":"ID.TOKEN.3","expires_in":1800,"user_id":"uid1"}"#)
    ])
    let response = try await Self.backend(transport).refresh(RefreshTokenRequest(refreshToken: "KEEP"))
    #expect(response.tokens == IssuedTokens(idToken: "ID.TOKEN.3", refreshToken: "KEEP", expiresIn: .seconds(1800)))
  }

  @Test func lookupReadsMixedTimestampUnitsAndProviders() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"uid1","email":"ada@example.com","emailVerified":true,"displayName":"Ada","photoUrl":"https://example.com/a.png","passwordHash":"UkVEQUNURUQ=","passwordUpdatedAt":1700000000000,"validSince":"1700000000","createdAt":"1700000000000","lastLoginAt":"1700000123000","lastRefreshAt":"2023-11-14T22:15:23.000Z","providerUserInfo":[{"providerId":"password","rawId":"ada@example.com","federatedId":"ada@example.com","email":"ada@example.com"},{"providerId":"google.com","rawId":"123","federatedId":"123","email":"g@example.com","displayName":"Ada G"}]}]}"#
      )
    ])
    let account = try await Self.backend(transport).lookup(LookupRequest(idToken: "ID.TOKEN.1"))
    try Self.expectGolden("lookup", transport)
    #expect(account.localID == "uid1")
    #expect(account.emailVerified)
    #expect(account.photoURL == URL(string: "https://example.com/a.png"))
    #expect(account.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(account.lastLoginAt == Date(timeIntervalSince1970: 1_700_000_123))
    #expect(account.providers.map(\.providerID) == [.password, .google])
    #expect(account.providers[1].rawID == "123")
  }

  @Test func lookupWithoutExactlyOneUserIsAnInvalidResponse() async throws {
    let transport = RecordingTransport([.status(200, #"{"users":[]}"#)])
    await #expect(throws: AuthError.self) { try await Self.backend(transport).lookup(LookupRequest(idToken: "T")) }
    let error = try await #require(throws: AuthError.self) {
      try await Self.backend(RecordingTransport([.status(200, "{}")])).lookup(LookupRequest(idToken: "T"))
    }
    #expect(error.code == .invalidResponse)
  }

  @Test func updateChangesTheProfileAndUnlinks() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"localId":"uid1","email":"ada@example.com","displayName":"Ada","providerUserInfo":[]}"#)
    ])
    let response = try await Self.backend(transport).update(
      UpdateAccountRequest(
        idToken: "ID.TOKEN.1", displayName: "Ada", deleteAttributes: [.photoURL], deleteProviders: [.google]))
    try Self.expectGolden("update-profile", transport)
    #expect(response.tokens == nil)
    #expect(response.account.displayName == "Ada")
  }

  @Test func updatePasswordReturnsNewTokens() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"localId":"uid1","email":"ada@example.com","emailVerified":false,"providerUserInfo":[{"providerId":"password","rawId":"ada@example.com"}],\#(Self.tokens)}"#
      )
    ])
    let response = try await Self.backend(transport).update(
      UpdateAccountRequest(idToken: "ID.TOKEN.1", password: "new-pass-2"))
    try Self.expectGolden("update-password", transport)
    #expect(response.tokens?.idToken == "ID.TOKEN.1")
  }

  @Test func updateAppliesAnActionCodeWithoutAToken() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"localId":"uid1","email":"ada@example.com","emailVerified":true}"#)
    ])
    let response = try await Self.backend(transport).update(UpdateAccountRequest(oobCode: "CODE-1"))
    try Self.expectGolden("update-apply-code", transport)
    #expect(response.account.emailVerified)
  }

  @Test func deleteSendsTheToken() async throws {
    let transport = RecordingTransport([.status(200, #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)])
    try await Self.backend(transport).delete(DeleteAccountRequest(idToken: "ID.TOKEN.1"))
    try Self.expectGolden("delete", transport)
  }

  @Test func revokingApplesTokenPostsTheCodeToIdentityToolkitV2() async throws {
    // Firebase's documented request: POST v2/accounts:revokeToken with providerId apple.com,
    // tokenType CODE, the authorization code as token, and the user's ID token.
    let transport = RecordingTransport([.status(200, "{}")])
    try await Self.backend(transport).revokeToken(.apple(authorizationCode: "APPLE.CODE.1", idToken: "ID.TOKEN.1"))
    try Self.expectGolden("revokeToken", transport)
  }

  @Test func aRefusedAppleCodeIsAnInvalidCredential() async throws {
    let transport = RecordingTransport([
      .status(400, #"{"error":{"code":400,"message":"INVALID_IDP_RESPONSE : invalid_grant"}}"#)
    ])
    let error = try await #require(throws: AuthError.self) {
      try await Self.backend(transport).revokeToken(.apple(authorizationCode: "used", idToken: "ID.TOKEN.1"))
    }
    #expect(error.code == .invalidCredential)
  }

  @Test func sendOobCodeForEachRequestType() async throws {
    for (name, request) in [
      ("sendOobCode-reset", OobCodeRequest.passwordReset(email: "ada@example.com")),
      ("sendOobCode-verify", .verifyEmail(idToken: "ID.TOKEN.1")),
      ("sendOobCode-change-email", .verifyAndChangeEmail(idToken: "ID.TOKEN.1", newEmail: "new@example.com")),
    ] {
      let transport = RecordingTransport([.status(200, #"{"email":"ada@example.com"}"#)])
      let response = try await Self.backend(transport).sendOobCode(request)
      try Self.expectGolden(name, transport)
      #expect(response.email == "ada@example.com")
    }
  }

  /// An unsigned JWT whose subject is `uid`: the v2 replies carry the uid only there.
  static func idToken(subject uid: String) -> String {
    func part(_ json: String) -> String {
      Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
    return part(#"{"alg":"RS256"}"#) + "." + part(#"{"sub":"\#(uid)"}"#) + ".c2ln"
  }

  @Test func aPasswordSignInThatNeedsASecondFactorCarriesTheChallenge() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"mfaPendingCredential":"PENDING-1","mfaInfo":[{"mfaEnrollmentId":"E1","displayName":"Phone","enrolledAt":"2026-11-30T10:00:00.123456Z","totpInfo":{}}]}"#
      )
    ])
    let error = try await #require(throws: AuthError.self) {
      try await Self.backend(transport).signInWithPassword(
        PasswordSignInRequest(email: "ada@example.com", password: "pw"))
    }
    #expect(error.code == .secondFactorRequired)
    let challenge = try #require(error.secondFactor)
    #expect(challenge.pendingCredential == "PENDING-1" && challenge.firstFactor == .password)
    #expect(challenge.factors.map(\.enrollmentID) == ["E1"] && challenge.factors.first?.kind == .totp)
    #expect(challenge.factors.first?.enrolledAt == Date(timeIntervalSince1970: 1_796_032_800.123456))
  }

  @Test(arguments: [#""verificationCodeLength":1e300"#, #""verificationCodeLength":6.5"#, #""periodSec":"-30""#])
  func aTOTPSecretOfAnUnusableShapeIsAnInvalidResponse(_ field: String) async throws {
    let start = RecordingTransport([
      .status(200, #"{"totpSessionInfo":{"sharedSecretKey":"JBSWY3DPEHPK3PXP","sessionInfo":"S",\#(field)}}"#)
    ])
    await #expect(throws: AuthError.self) {
      try await Self.backend(start).secondFactor(.startTOTPEnrollment(idToken: "ID.TOKEN.1"))
    }
    let eight = RecordingTransport([
      .status(200, #"{"totpSessionInfo":{"sharedSecretKey":"K","sessionInfo":"S","verificationCodeLength":"8"}}"#)
    ])
    let reply = try await Self.backend(eight).secondFactor(.startTOTPEnrollment(idToken: "ID.TOKEN.1"))
    guard case .secret(let secret) = reply else {
      Issue.record("no secret: \(reply)")
      return
    }
    #expect(secret.codeLength == 8)
  }

  @Test func theTOTPCallsUseIdentityPlatformsV2Endpoints() async throws {
    let start = RecordingTransport([
      .status(
        200,
        #"{"totpSessionInfo":{"sharedSecretKey":"JBSWY3DPEHPK3PXP","verificationCodeLength":6,"hashingAlgorithm":"HMAC_SHA1","periodSec":30,"sessionInfo":"SESSION-1","finalizeEnrollmentTime":"2026-12-01T10:05:00Z"}}"#
      )
    ])
    let reply = try await Self.backend(start).secondFactor(.startTOTPEnrollment(idToken: "ID.TOKEN.1"))
    try Self.expectGolden("mfaEnrollment-start", start)
    #expect(
      reply
        == .secret(
          TOTPSecret(
            secretKey: "JBSWY3DPEHPK3PXP", enrollmentDeadline: Date(timeIntervalSince1970: 1_796_119_500),
            sessionInfo: "SESSION-1")))

    let token = Self.idToken(subject: "uid1")
    for (name, request) in [
      (
        "mfaEnrollment-finalize",
        SecondFactorRequest.finalizeTOTPEnrollment(
          idToken: "ID.TOKEN.1", sessionInfo: "SESSION-1", code: "123456", displayName: "Phone")
      ),
      ("mfaEnrollment-withdraw", .withdraw(idToken: "ID.TOKEN.1", enrollmentID: "E1")),
      ("mfaSignIn-finalize", .finalizeTOTPSignIn(pendingCredential: "PENDING-1", enrollmentID: "E1", code: "654321")),
    ] {
      let transport = RecordingTransport([.status(200, #"{"idToken":"\#(token)","refreshToken":"REFRESH-2"}"#)])
      let response = try await Self.backend(transport).secondFactor(request)
      try Self.expectGolden(name, transport)
      guard case .tokens(let tokens, let uid) = response else {
        Issue.record("\(name) answered \(response)")
        continue
      }
      #expect(uid == "uid1" && tokens.refreshToken == "REFRESH-2")
    }
  }

  @Test func aSignInLinkCarriesTheActionCodeSettings() async throws {
    let transport = RecordingTransport([
      .status(200, #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"ada@example.com"}"#)
    ])
    let settings = ActionCodeSettings(
      continueURL: URL(string: "https://example.com/finish?from=app")!, handlesCodeInApp: true,
      iOSBundleID: "com.example.app", androidPackageName: "com.example.android", linkDomain: "links.example.com")
    let response = try await Self.backend(transport).sendOobCode(
      .emailSignIn(email: "ada@example.com"), settings: settings)
    try Self.expectGolden("sendOobCode-email-signin", transport)
    #expect(response.email == "ada@example.com")
  }

  @Test func signInWithEmailLinkSendsTheCodeAndLinksWithAToken() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"kind":"identitytoolkit#EmailLinkSigninResponse","localId":"uid1","email":"ada@example.com","isNewUser":true,\#(Self.tokens)}"#
      )
    ])
    let response = try await Self.backend(transport).signInWithEmailLink(
      EmailLinkSignInRequest(email: "ada@example.com", oobCode: "CODE+1/=", idToken: "ID.TOKEN.0"))
    try Self.expectGolden("signInWithEmailLink", transport)
    #expect(response.localID == "uid1")
    #expect(response.isNewUser)
    #expect(response.tokens.refreshToken == "REFRESH+1/=")
  }

  @Test func checkingACodeReadsWhatItIsForAndTheNewEmail() async throws {
    let transport = RecordingTransport([
      .status(
        200, #"{"email":"ada@example.com","newEmail":"lovelace@example.com","requestType":"VERIFY_AND_CHANGE_EMAIL"}"#)
    ])
    let response = try await Self.backend(transport).resetPassword(ResetPasswordRequest(oobCode: "CODE-3"))
    try Self.expectGolden("resetPassword-check", transport)
    #expect(
      response
        == ResetPasswordResponse(
          email: "ada@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL", newEmail: "lovelace@example.com"))
  }

  @Test func resetPasswordChecksOrConfirmsACode() async throws {
    let transport = RecordingTransport([.status(200, #"{"email":"ada@example.com","requestType":"PASSWORD_RESET"}"#)])
    let response = try await Self.backend(transport).resetPassword(
      ResetPasswordRequest(oobCode: "CODE-2", newPassword: "new-pass-2"))
    try Self.expectGolden("resetPassword", transport)
    #expect(response == ResetPasswordResponse(email: "ada@example.com", requestType: "PASSWORD_RESET"))
  }
}

extension FirebaseBackendWireTests {
  @Test func theEmulatorOutboxListsSentCodes() async throws {
    let transport = RecordingTransport([
      .status(
        200,
        #"{"oobCodes":[{"email":"ada@example.com","oobCode":"C1","oobLink":"http://127.0.0.1:9099/emulator/action?mode=resetPassword&oobCode=C1","requestType":"PASSWORD_RESET"},{"email":"x@example.com"}]}"#
      )
    ])
    let codes = try await Self.backend(transport, emulator: true).emulatorOobCodes()
    try Self.expectGolden("emulator-oobCodes", transport)
    #expect(codes.map(\.oobCode) == ["C1"])
    #expect(codes.first?.requestType == "PASSWORD_RESET")
    let production = try await #require(throws: AuthError.self) {
      _ = try await Self.backend(RecordingTransport()).emulatorOobCodes()
    }
    #expect(production.code == .misconfigured)
  }
}
