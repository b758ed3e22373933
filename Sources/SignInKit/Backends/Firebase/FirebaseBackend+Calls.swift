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
    let reply = try await call("signUp", body)
    return SignInResponse(
      localID: try reply.required("localId", in: "signUp"), email: reply.string("email"),
      tokens: try reply.tokens(in: "signUp"), isNewUser: request.idToken == nil)
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    var body = PasswordSignInBody()
    body.email = request.email
    body.password = request.password
    body.returnSecureToken = true
    let reply = try await call("signInWithPassword", body)
    try Self.rejectSecondFactor(reply, firstFactor: .password)
    return SignInResponse(
      localID: try reply.required("localId", in: "signInWithPassword"), email: reply.string("email"),
      tokens: try reply.tokens(in: "signInWithPassword"), isNewUser: false)
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    var body = EmailLinkSignInBody()
    body.email = request.email
    body.oobCode = request.oobCode
    body.idToken = request.idToken
    body.returnSecureToken = true
    let reply = try await call("signInWithEmailLink", body)
    try Self.rejectSecondFactor(reply, firstFactor: .password)
    return SignInResponse(
      localID: try reply.required("localId", in: "signInWithEmailLink"), email: reply.string("email"),
      tokens: try reply.tokens(in: "signInWithEmailLink"), isNewUser: reply.bool("isNewUser"))
  }

  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    var body = CustomTokenSignInBody()
    body.token = request.token
    body.returnSecureToken = true
    let reply = try await call("signInWithCustomToken", body)
    try Self.rejectSecondFactor(reply, firstFactor: .custom)
    let tokens = try reply.tokens(in: "signInWithCustomToken")
    return SignInResponse(
      localID: try Self.uid(of: tokens, replyingTo: "the custom-token sign-in"), tokens: tokens,
      isNewUser: reply.bool("isNewUser"))
  }

  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    var body = IdpSignInBody()
    body.requestUri = request.requestURI
    body.postBody = request.credential.postBody
    body.idToken = request.idToken
    body.returnSecureToken = true
    body.returnIdpCredential = true
    let reply = try await call("signInWithIdp", body)
    // Failures that come back as 200.
    if reply.bool("needConfirmation") {
      throw AuthError(
        .accountExistsWithDifferentCredential,
        "An account already uses \(reply.string("email") ?? "this email") with another sign-in method. "
          + "Sign in with that method, then link this one.",
        serverMessage: "needConfirmation")
    }
    if let message = reply.string("errorMessage") {
      throw FirebaseErrorCatalog.error(serverMessage: message, status: 200)
    }
    try Self.rejectSecondFactor(reply, firstFactor: request.credential.providerID)
    return SignInResponse(
      localID: try reply.required("localId", in: "signInWithIdp"), email: reply.string("email"),
      tokens: try reply.tokens(in: "signInWithIdp"), isNewUser: reply.bool("isNewUser"))
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    let body = FormEncoding.encode(RefreshGrantBody(refreshToken: request.refreshToken).formFields)
    let httpRequest = HTTPRequest(
      url: secureTokenURL, headers: headers(contentType: "application/x-www-form-urlencoded"),
      body: Data(body.utf8), timeout: requestTimeout)
    var failures = 0
    while true {
      do {
        let reply = try await exchange(httpRequest, call: "token refresh")
        // `access_token` and `id_token` are the same ID token; either will do.
        guard let idToken = reply.string("id_token") ?? reply.string("access_token") else {
          throw AuthError(.invalidResponse, "The token refresh reply has no ID token. Try again.")
        }
        let tokens = IssuedTokens(
          idToken: idToken, refreshToken: reply.string("refresh_token") ?? request.refreshToken,
          expiresIn: try reply.duration("expires_in", in: "token refresh", within: JSONReply.tokenLifetimes)
            ?? .seconds(3600))
        return RefreshResponse(userID: try reply.required("user_id", in: "token refresh"), tokens: tokens)
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
    let reply = try await call("lookup", body)
    guard let users = reply.fields["users"]?.array, users.count == 1, let user = users[0].object else {
      throw AuthError(
        .invalidResponse,
        "The lookup reply does not describe exactly one user. Try again; sign in again if it persists.")
    }
    return try JSONReply(user).account(in: "lookup")
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
    let reply = try await call("update", body)
    let tokens: IssuedTokens? =
      reply.string("idToken") != nil && reply.string("refreshToken") != nil ? try reply.tokens(in: "update") : nil
    return UpdateAccountResponse(account: try reply.account(in: "update"), tokens: tokens)
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    var body = IDTokenBody()
    body.idToken = request.idToken
    _ = try await call("delete", body)
  }

  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    var body = RevokeTokenBody()
    body.providerId = request.providerID.rawValue
    body.tokenType = request.tokenType.rawValue
    body.token = request.token
    body.idToken = request.idToken
    _ = try await call("revokeToken", body, version: 2)
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
    let reply = try await call("sendOobCode", body)
    return OobCodeResponse(email: reply.string("email"))
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    var body = ResetPasswordBody()
    body.oobCode = request.oobCode
    body.newPassword = request.newPassword
    let reply = try await call("resetPassword", body)
    return ResetPasswordResponse(
      email: reply.string("email"), requestType: reply.string("requestType"), newEmail: reply.string("newEmail"))
  }

  /// A reply with `mfaPendingCredential` and no tokens waits for a second factor: it becomes
  /// ``AuthError/Code/secondFactorRequired`` carrying the factors (`mfaInfo`).
  static func rejectSecondFactor(_ reply: JSONReply, firstFactor: ProviderID) throws {
    guard let pending = reply.string("mfaPendingCredential"), reply.string("idToken") == nil else { return }
    let factors = (reply.fields["mfaInfo"]?.array ?? []).compactMap { $0.object.flatMap { JSONReply($0).secondFactor } }
    throw AuthError.secondFactorRequired(
      SecondFactorChallenge(factors: factors, firstFactor: firstFactor, pendingCredential: pending))
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
    let reply = try await call(request.method, body, version: 2)
    if case .startTOTPEnrollment = request {
      guard let info = reply.fields["totpSessionInfo"]?.object.map(JSONReply.init),
        let secret = info.string("sharedSecretKey"), let session = info.string("sessionInfo")
      else {
        throw AuthError(.invalidResponse, "The TOTP enrollment reply has no secret; try again.")
      }
      return .secret(
        TOTPSecret(
          secretKey: secret, codeLength: info.number("verificationCodeLength").map(Int.init) ?? 6,
          codeInterval: .seconds(info.number("periodSec").map(Int.init) ?? 30),
          hashingAlgorithm: info.string("hashingAlgorithm") ?? "HMAC_SHA1",
          enrollmentDeadline: info.date(rfc3339: "finalizeEnrollmentTime"),
          sessionInfo: session))
    }
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
