import Foundation
import SignInCrypto
import SignInHTTP
import SignInWire

extension FirebaseBackend {
  public func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    var body = SignUpBody()
    body.email = request.email
    body.password = request.password
    body.displayName = request.displayName
    body.idToken = request.idToken
    body.returnSecureToken = true
    let reply: SignInReply = try await call("signUp", body)
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: "signUp"), email: reply.email,
      tokens: try reply.tokens(in: "signUp"), isNewUser: request.idToken == nil)
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    var body = PasswordSignInBody()
    body.email = request.email
    body.password = request.password
    body.returnSecureToken = true
    let reply: SignInReply = try await call("signInWithPassword", body)
    try reply.rejectSecondFactor(firstFactor: .password)
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: "signInWithPassword"), email: reply.email,
      tokens: try reply.tokens(in: "signInWithPassword"), isNewUser: false)
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    var body = EmailLinkSignInBody()
    body.email = request.email
    body.oobCode = request.oobCode
    body.idToken = request.idToken
    body.returnSecureToken = true
    let reply: SignInReply = try await call("signInWithEmailLink", body)
    try reply.rejectSecondFactor(firstFactor: .password)
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: "signInWithEmailLink"), email: reply.email,
      tokens: try reply.tokens(in: "signInWithEmailLink"), isNewUser: reply.isNewUser ?? false)
  }

  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    var body = CustomTokenSignInBody()
    body.token = request.token
    body.returnSecureToken = true
    let reply: SignInReply = try await call("signInWithCustomToken", body)
    try reply.rejectSecondFactor(firstFactor: .custom)
    let tokens = try reply.tokens(in: "signInWithCustomToken")
    return SignInResponse(
      localID: try Self.uid(of: tokens, replyingTo: "the custom-token sign-in"), tokens: tokens,
      isNewUser: reply.isNewUser ?? false)
  }

  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    var body = IdpSignInBody()
    body.requestUri = request.requestURI
    body.postBody = request.credential.postBody
    body.idToken = request.idToken
    body.returnSecureToken = true
    body.returnIdpCredential = true
    let reply: SignInReply = try await call("signInWithIdp", body)
    // Failures that come back as 200, with the account's email and the IdP's tokens: a
    // credential the app can sign in with instead.
    // The IdP's tokens as the reply returns them, with what else the sent credential carried
    // (Apple's raw nonce, which the token still answers).
    var updated = request.credential
    if reply.oauthIdToken != nil || reply.oauthAccessToken != nil {
      updated.idToken = reply.oauthIdToken
      updated.accessToken = reply.oauthAccessToken
    }
    if reply.needConfirmation == true {
      throw AuthError(
        .accountExistsWithDifferentCredential,
        "An account already uses \(reply.email ?? "this email") with another sign-in method. "
          + "Sign in with that method, then link this one.",
        serverMessage: "needConfirmation"
      ).withConflict(email: reply.email, credential: updated)
    }
    if let message = reply.errorMessage {
      throw FirebaseErrorCatalog.error(serverMessage: message, status: 200)
        .withConflict(email: reply.email, credential: updated)
    }
    try reply.rejectSecondFactor(firstFactor: request.credential.providerID)
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: "signInWithIdp"), email: reply.email,
      tokens: try reply.tokens(in: "signInWithIdp"), isNewUser: reply.isNewUser ?? false)
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    let body = FormEncoding.encode(RefreshGrantBody(refreshToken: request.refreshToken).formFields)
    let httpRequest = HTTPRequest(
      url: secureTokenURL, headers: headers(contentType: "application/x-www-form-urlencoded"),
      body: Data(body.utf8), timeout: requestTimeout)
    var failures = 0
    while true {
      do {
        let reply: SecureTokenReply = try await exchange(httpRequest, call: "token refresh")
        // `access_token` and `id_token` are the same ID token; either will do.
        guard let idToken = reply.idToken ?? reply.accessToken else {
          throw AuthError(.invalidResponse, "The token refresh reply has no ID token. Try again.")
        }
        let tokens = IssuedTokens(
          idToken: idToken, refreshToken: reply.refreshToken ?? request.refreshToken,
          expiresIn: try reply.duration(reply.expiresIn, .expiresIn, in: "token refresh") ?? .seconds(3600))
        return RefreshResponse(userID: try reply.required(reply.userId, .userId, in: "token refresh"), tokens: tokens)
      } catch let error as AuthError where error.isTransient && failures + 1 < refreshAttempts {
        failures += 1
        do {
          try await clock.sleep(for: refreshBackoff.delay(afterFailures: failures, random: .random(in: 0..<1)))
        } catch {
          throw AuthError.cancelled
        }
      }
    }
  }

  public func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    var body = IDTokenBody()
    body.idToken = request.idToken
    let reply: LookupReply = try await call("lookup", body)
    guard let users = reply.users, users.count == 1 else {
      throw AuthError(
        .invalidResponse,
        "The lookup reply does not describe exactly one user. Try again; sign in again if it persists.")
    }
    return try users[0].account(in: "lookup")
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    var body = UpdateAccountBody()
    body.idToken = request.idToken
    body.oobCode = request.oobCode
    body.email = request.email
    body.password = request.password
    body.displayName = request.displayName
    body.photoUrl = request.photoURL?.absoluteString
    if !request.deleteAttributes.isEmpty { body.deleteAttribute = request.deleteAttributes.map(\.rawValue) }
    if !request.deleteProviders.isEmpty { body.deleteProvider = request.deleteProviders.map(\.rawValue) }
    if request.idToken != nil { body.returnSecureToken = true }
    let reply: AccountRecord = try await call("update", body)
    return UpdateAccountResponse(account: try reply.account(in: "update"), tokens: try reply.tokens(in: "update"))
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    var body = IDTokenBody()
    body.idToken = request.idToken
    let _: EmptyBody = try await call("delete", body)
  }

  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    var body = RevokeTokenBody()
    body.providerId = request.providerID.rawValue
    body.tokenType = request.tokenType.rawValue
    body.token = request.token
    body.idToken = request.idToken
    let _: EmptyBody = try await call("revokeToken", body, version: 2)
  }

  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    var body = SendOobCodeBody()
    body.requestType = request.requestType
    switch request {
    case .passwordReset(let email), .emailSignIn(let email):
      body.email = email
    case .verifyEmail(let idToken):
      body.idToken = idToken
    case .verifyAndChangeEmail(let idToken, let newEmail):
      body.idToken = idToken
      body.newEmail = newEmail
    }
    if let settings {
      body.continueUrl = settings.continueURL?.absoluteString
      if settings.handlesCodeInApp { body.canHandleCodeInApp = true }
      body.iOSBundleId = settings.iOSBundleID
      body.androidPackageName = settings.androidPackageName
      body.linkDomain = settings.linkDomain
    }
    let reply: OobCodeReply = try await call("sendOobCode", body)
    return OobCodeResponse(email: reply.email)
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    var body = ResetPasswordBody()
    body.oobCode = request.oobCode
    body.newPassword = request.newPassword
    let reply: ResetPasswordReply = try await call("resetPassword", body)
    return ResetPasswordResponse(email: reply.email, requestType: reply.requestType, newEmail: reply.newEmail)
  }

  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    var body = SecondFactorBody()
    var verification = TOTPVerificationInfo()
    switch request {
    case .startTOTPEnrollment(let idToken):
      body.idToken = idToken
      body.totpEnrollmentInfo = EmptyBody()
    case .finalizeTOTPEnrollment(let idToken, let sessionInfo, let code, let displayName):
      body.idToken = idToken
      verification.sessionInfo = sessionInfo
      verification.verificationCode = code
      body.totpVerificationInfo = verification
      body.displayName = displayName
    case .withdraw(let idToken, let enrollmentID):
      body.idToken = idToken
      body.mfaEnrollmentId = enrollmentID
    case .finalizeTOTPSignIn(let pendingCredential, let enrollmentID, let code):
      body.mfaPendingCredential = pendingCredential
      body.mfaEnrollmentId = enrollmentID
      verification.verificationCode = code
      body.totpVerificationInfo = verification
    }
    if case .startTOTPEnrollment = request {
      let reply: TOTPEnrollmentReply = try await call(request.method, body, version: 2)
      guard let info = reply.totpSessionInfo, let secret = info.sharedSecretKey, let session = info.sessionInfo else {
        throw AuthError(.invalidResponse, "The TOTP enrollment reply has no secret; try again.")
      }
      let call = request.method
      return .secret(
        TOTPSecret(
          secretKey: secret,
          codeLength: try info.whole(info.verificationCodeLength, .verificationCodeLength, in: call, within: 4...10)
            ?? 6,
          codeInterval: .seconds(try info.whole(info.periodSec, .periodSec, in: call, within: 1...3600) ?? 30),
          hashingAlgorithm: info.hashingAlgorithm ?? "HMAC_SHA1",
          enrollmentDeadline: JSONReply.date(rfc3339: info.finalizeEnrollmentTime), sessionInfo: session))
    }
    let reply: SignInReply = try await call(request.method, body, version: 2)
    let tokens = try reply.tokens(in: request.method)
    return .tokens(tokens, uid: try Self.uid(of: tokens, replyingTo: request.method))
  }

  /// The user new `tokens` are for, for the replies that carry no `localId`
  /// (`signInWithCustomToken`, the v2 second-factor calls): the ID token's subject.
  static func uid(of tokens: IssuedTokens, replyingTo call: String) throws -> String {
    guard let uid = (try? JSONWebToken(decoding: tokens.idToken))?.subject, !uid.isEmpty else {
      throw AuthError(.invalidResponse, "The reply to \(call) has an ID token that names no user; report this.")
    }
    return uid
  }
}
