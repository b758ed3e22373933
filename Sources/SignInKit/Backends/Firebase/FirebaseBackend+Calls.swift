import Foundation
import SignInCrypto
import SignInFoundation
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
    let withPassword = request.email != nil || request.password != nil
    let reply = try await protected(.emailPassword, .signUpPassword) { answer in
      try await call(FirebaseAPI.signUp, withPassword ? body.answering(answer) : body)
    }
    let name = FirebaseAPI.signUp.name
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: name), email: reply.accountEmail,
      tokens: try reply.tokens(in: name), isNewUser: request.idToken == nil)
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    var body = PasswordSignInBody()
    body.email = request.email
    body.password = request.password
    body.returnSecureToken = true
    let reply = try await protected(.emailPassword, .signInWithPassword) { answer in
      try await call(FirebaseAPI.signInWithPassword, body.answering(answer))
    }
    try reply.rejectSecondFactor(firstFactor: .password)
    let name = FirebaseAPI.signInWithPassword.name
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: name), email: reply.accountEmail,
      tokens: try reply.tokens(in: name), isNewUser: false)
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    var body = EmailLinkSignInBody()
    body.email = request.email
    body.oobCode = request.oobCode
    body.idToken = request.idToken
    body.returnSecureToken = true
    let reply = try await call(FirebaseAPI.signInWithEmailLink, body)
    try reply.rejectSecondFactor(firstFactor: .password)
    let name = FirebaseAPI.signInWithEmailLink.name
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: name), email: reply.accountEmail,
      tokens: try reply.tokens(in: name), isNewUser: reply.isNewUser ?? false)
  }

  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    var body = CustomTokenSignInBody()
    body.token = request.token
    body.returnSecureToken = true
    let reply = try await call(FirebaseAPI.signInWithCustomToken, body)
    try reply.rejectSecondFactor(firstFactor: .custom)
    let tokens = try reply.tokens(in: FirebaseAPI.signInWithCustomToken.name)
    return SignInResponse(
      localID: try Self.uid(of: tokens, replyingTo: "the custom-token sign-in"), tokens: tokens,
      isNewUser: reply.isNewUser ?? false)
  }

  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    var body = IdpSignInBody()
    // A hosted handler's answer is the URL its page finished on; Firebase reads the provider's
    // response from it.
    body.requestUri = request.credential.responseURL ?? request.requestURI
    body.postBody = request.credential.postBody
    body.sessionId = request.credential.sessionID
    body.idToken = request.idToken
    body.pendingToken = request.credential.pendingToken
    body.returnSecureToken = true
    body.returnIdpCredential = true
    let reply = try await call(FirebaseAPI.signInWithIdp, body)
    // Failures that come back as 200, with the account's email, the IdP's tokens and a pending
    // token: a credential the app can sign in with instead. As FirebaseAuth builds it, it
    // carries the pending token and no nonce: Firebase refuses an Apple token sent twice.
    var updated = request.credential
    if reply.oauthIdToken != nil || reply.oauthAccessToken != nil {
      updated.idToken = reply.oauthIdToken
      updated.accessToken = reply.oauthAccessToken
    }
    if let pendingToken = reply.pendingToken {
      updated.pendingToken = pendingToken
      updated.rawNonce = nil
      updated.responseURL = nil
      updated.sessionID = nil
    }
    if reply.needConfirmation == true {
      throw AuthError(
        .accountExistsWithDifferentCredential,
        "An account already uses \(reply.email ?? "this email") with another sign-in method. "
          + "Sign in with that method, then link this one.",
        serverMessage: SignInReply.CodingKeys.needConfirmation.stringValue
      ).withConflict(email: reply.email, credential: updated)
    }
    if let message = reply.errorMessage {
      throw FirebaseErrorCatalog.error(serverMessage: message, status: 200)
        .withConflict(email: reply.email, credential: updated)
    }
    try reply.rejectSecondFactor(firstFactor: request.credential.providerID)
    let name = FirebaseAPI.signInWithIdp.name
    var providerCredential: ProviderCredential?
    if reply.oauthAccessToken != nil || reply.oauthIdToken != nil || reply.oauthTokenSecret != nil {
      var credential = ProviderCredential(
        providerID: reply.providerId.map(ProviderID.init(rawValue:)) ?? request.credential.providerID,
        idToken: reply.oauthIdToken, accessToken: reply.oauthAccessToken)
      credential.secret = reply.oauthTokenSecret
      providerCredential = credential
    }
    let rawUserInfo = reply.rawUserInfo.flatMap {
      try? JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8))
    }
    return SignInResponse(
      localID: try reply.required(reply.localId, .localId, in: name), email: reply.accountEmail,
      tokens: try reply.tokens(in: name), isNewUser: reply.isNewUser ?? false, providerCredential: providerCredential,
      rawUserInfo: rawUserInfo?.mapValues(ClaimValue.init), username: reply.screenName)
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    let body = RefreshGrantBody(refreshToken: request.refreshToken)
    // Built once: a malformed project fails before the first attempt.
    let httpRequest = inProcess == nil ? try self.request(FirebaseAPI.token, body) : nil
    var failures = 0
    while true {
      do {
        let reply: SecureTokenReply =
          if let httpRequest {
            try await exchange(httpRequest, call: "token refresh")
          } else {
            try await call(FirebaseAPI.token, body)
          }
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
    var body = LookupBody()
    body.idToken = request.idToken
    let reply = try await call(FirebaseAPI.lookup, body)
    guard let users = reply.users, users.count == 1 else {
      throw AuthError(
        .invalidResponse,
        "The lookup reply does not describe exactly one user. Try again; sign in again if it persists.")
    }
    return try users[0].account(in: FirebaseAPI.lookup.name)
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    var body = UpdateAccountBody()
    body.idToken = request.idToken
    body.oobCode = request.oobCode
    body.email = request.email
    body.password = request.password
    body.displayName = request.displayName
    body.photoUrl = request.photoURL?.absoluteString
    if !request.deleteAttributes.isEmpty { body.deleteAttribute = request.deleteAttributes.map(\.wire) }
    if !request.deleteProviders.isEmpty { body.deleteProvider = request.deleteProviders.map(\.rawValue) }
    if !request.deletePasskeys.isEmpty {
      body.deletePasskey = request.deletePasskeys.map { Base64URL.decode($0).map(WireBytes.encode) ?? $0 }
    }
    if request.idToken != nil { body.returnSecureToken = true }
    let reply = try await call(FirebaseAPI.update, body)
    let name = FirebaseAPI.update.name
    return UpdateAccountResponse(account: try reply.account(in: name), tokens: try reply.tokens(in: name))
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    var body = DeleteAccountBody()
    body.idToken = request.idToken
    _ = try await call(FirebaseAPI.delete, body)
  }

  /// Does nothing: the Firebase Auth REST API has no client call that revokes one refresh
  /// token (only the Admin SDK's `revokeRefreshTokens`, for every session of a user). The token
  /// dies with the sign-out's local removal, the password's next change, or the account.
  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {}

  public func passwordPolicy() async throws -> PasswordPolicy {
    let reply = try await call(FirebaseAPI.passwordPolicy, PasswordPolicyQuery())
    let options = reply.customStrengthOptions
    return PasswordPolicy(
      minimumLength: options?.minPasswordLength.map { Int($0) } ?? PasswordPolicy.firebaseDefault.minimumLength,
      maximumLength: options?.maxPasswordLength.map { Int($0) },
      requiresLowercase: options?.containsLowercaseCharacter ?? false,
      requiresUppercase: options?.containsUppercaseCharacter ?? false,
      requiresDigit: options?.containsNumericCharacter ?? false,
      requiresSymbol: options?.containsNonAlphanumericCharacter ?? false,
      symbols: (reply.allowedNonAlphanumericCharacters ?? []).joined(),
      isEnforced: reply.enforcementState == "ENFORCE")
  }

  public func signInMethods(forEmail email: String) async throws -> [ProviderID] {
    var body = CreateAuthUriBody()
    body.identifier = email
    // Firebase asks where a web sign-in would continue; an email's methods do not depend on it.
    body.continueUri = "http://localhost"
    let reply = try await call(FirebaseAPI.createAuthUri, body)
    return (reply.signinMethods ?? []).map { ProviderID(rawValue: $0.rawValue) }
  }

  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    var body = RevokeTokenBody()
    body.providerId = request.providerID.rawValue
    body.tokenType = request.tokenType.wire
    body.token = request.token
    body.idToken = request.idToken
    _ = try await call(FirebaseAPI.revokeToken, body)
  }

  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    var body = SendOobCodeBody()
    body.requestType = request.kind
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
    // Only the emails anyone may ask for are protected; the others need a signed-in user.
    let reply: OobCodeReply
    switch request {
    case .passwordReset, .emailSignIn:
      reply = try await protected(.emailPassword, .getOobCode) { answer in
        try await call(FirebaseAPI.sendOobCode, body.answering(answer))
      }
    case .verifyEmail, .verifyAndChangeEmail:
      reply = try await call(FirebaseAPI.sendOobCode, body)
    }
    return OobCodeResponse(email: reply.email)
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    var body = ResetPasswordBody()
    body.oobCode = request.oobCode
    body.newPassword = request.newPassword
    let reply = try await call(FirebaseAPI.resetPassword, body)
    return ResetPasswordResponse(
      email: reply.email, requestType: reply.requestType?.rawValue, newEmail: reply.newEmail)
  }

  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    let reply: SignInReply
    switch request {
    case .startPhoneEnrollment(let idToken, let phoneNumber):
      var body = StartMfaEnrollmentBody()
      body.idToken = idToken
      let info = try await phoneInfo(for: phoneNumber)
      let started = try await protected(.phone, .mfaSmsEnrollment) { answer in
        body.phoneEnrollmentInfo = info.answering(answer)
        return try await call(FirebaseAPI.startMfaEnrollment, body)
      }
      return .codeSent(try Self.codeSent(started.phoneSessionInfo, in: FirebaseAPI.startMfaEnrollment.name))
    case .finalizePhoneEnrollment(let idToken, let verificationID, let code, let displayName):
      var body = FinalizeMfaEnrollmentBody()
      body.idToken = idToken
      body.phoneVerificationInfo = PhoneVerificationInfo(sessionInfo: verificationID, code: code)
      body.displayName = displayName
      reply = try await call(FirebaseAPI.finalizeMfaEnrollment, body)
    case .startPhoneSignIn(let pendingCredential, let enrollmentID):
      var body = StartMfaSignInBody()
      body.mfaPendingCredential = pendingCredential
      body.mfaEnrollmentId = enrollmentID
      let info = try await phoneInfo(for: nil)
      let started = try await protected(.phone, .mfaSmsSignIn) { answer in
        body.phoneSignInInfo = info.answering(answer)
        return try await call(FirebaseAPI.startMfaSignIn, body)
      }
      return .codeSent(try Self.codeSent(started.phoneResponseInfo, in: FirebaseAPI.startMfaSignIn.name))
    case .finalizePhoneSignIn(let pendingCredential, let enrollmentID, let verificationID, let code):
      var body = FinalizeMfaSignInBody()
      body.mfaPendingCredential = pendingCredential
      body.mfaEnrollmentId = enrollmentID
      body.phoneVerificationInfo = PhoneVerificationInfo(sessionInfo: verificationID, code: code)
      reply = try await call(FirebaseAPI.finalizeMfaSignIn, body)
    case .startTOTPEnrollment(let idToken):
      var body = StartMfaEnrollmentBody()
      body.idToken = idToken
      body.totpEnrollmentInfo = NoBody()
      return .secret(try Self.secret(try await call(FirebaseAPI.startMfaEnrollment, body)))
    case .finalizeTOTPEnrollment(let idToken, let sessionInfo, let code, let displayName):
      var body = FinalizeMfaEnrollmentBody()
      body.idToken = idToken
      body.totpVerificationInfo = TOTPVerificationInfo(sessionInfo: sessionInfo, verificationCode: code)
      body.displayName = displayName
      reply = try await call(FirebaseAPI.finalizeMfaEnrollment, body)
    case .withdraw(let idToken, let enrollmentID):
      var body = WithdrawMfaBody()
      body.idToken = idToken
      body.mfaEnrollmentId = enrollmentID
      reply = try await call(FirebaseAPI.withdrawMfa, body)
    case .finalizeTOTPSignIn(let pendingCredential, let enrollmentID, let code):
      var body = FinalizeMfaSignInBody()
      body.mfaPendingCredential = pendingCredential
      body.mfaEnrollmentId = enrollmentID
      body.totpVerificationInfo = TOTPSignInInfo(verificationCode: code)
      reply = try await call(FirebaseAPI.finalizeMfaSignIn, body)
    }
    let tokens = try reply.tokens(in: request.endpoint.name)
    return .tokens(tokens, uid: try Self.uid(of: tokens, replyingTo: request.endpoint.name))
  }

  /// The TOTP secret an enrollment's start answered.
  private static func secret(_ reply: StartMfaEnrollmentReply) throws -> TOTPSecret {
    guard let info = reply.totpSessionInfo, let secret = info.sharedSecretKey, let session = info.sessionInfo else {
      throw AuthError(.invalidResponse, "The TOTP enrollment reply has no secret; try again.")
    }
    let call = FirebaseAPI.startMfaEnrollment.name
    return TOTPSecret(
      secretKey: secret,
      codeLength: try info.whole(info.verificationCodeLength, .verificationCodeLength, in: call, within: 4...10) ?? 6,
      codeInterval: .seconds(try info.whole(info.periodSec, .periodSec, in: call, within: 1...3600) ?? 30),
      hashingAlgorithm: info.hashingAlgorithm ?? "HMAC_SHA1",
      enrollmentDeadline: JSONReply.date(rfc3339: info.finalizeEnrollmentTime), sessionInfo: session)
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

extension SignInReply {
  /// The account's email; `nil` for none, which Firebase sends as `""` (an anonymous sign-up).
  fileprivate var accountEmail: String? { email?.isEmpty == false ? email : nil }
}
