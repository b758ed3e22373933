import Foundation
import SignInKit
import SignInWire

/// The client's sign-in calls: sign-up, password, identity provider, custom token, email link
/// and phone number.
enum SignInEndpoints {
  /// `accounts:signUp`; an administrator's create (`projects/P/accounts`, or a `localId` in the
  /// body) makes the account with the settings the body names.
  static func signUp(_ body: SignUpBody, _ context: ServiceContext) async throws -> SignInReply {
    let backend = try await context.backend()
    if context.isAdmin, context.isScoped || body.localId != nil {
      let changes = AdminAccountChanges(
        email: body.email, phoneNumber: body.phoneNumber, password: body.password, displayName: body.displayName,
        photoURL: body.photoUrl, emailVerified: body.emailVerified, disabled: body.disabled)
      let account = try await backend.administering({ try $0.adminCreate(uid: body.localId, changes) })
      var reply = SignInReply()
      reply.kind = "identitytoolkit#SignupNewUserResponse"
      reply.localId = account.uid
      return reply
    }
    let withPassword = body.email != nil || body.password != nil
    if withPassword {
      try await context.requireTenant(allows: .passwordSignUp)
      try await RecaptchaGate.check(body.recaptcha, for: .emailPassword, action: .signUpPassword, context)
    } else if body.idToken == nil {
      try await context.requireTenant(allows: .anonymousSignUp)
    }
    let response = try await backend.run {
      try await $0.accounts.signUp(
        SignUpRequest(email: body.email, password: body.password, displayName: body.displayName, idToken: body.idToken))
    }
    return ReplyShapes.signIn(response, kind: "identitytoolkit#SignupNewUserResponse")
  }

  static func signInWithPassword(_ body: PasswordSignInBody, _ context: ServiceContext) async throws -> SignInReply {
    try await context.requireTenant(allows: .passwordSignIn)
    try await RecaptchaGate.check(body.recaptcha, for: .emailPassword, action: .signInWithPassword, context)
    let request = PasswordSignInRequest(
      email: try body.required(body.email, .missingEmail), password: try body.required(body.password, .missingPassword))
    let backend = try await context.backend()
    return try await ReplyShapes.signingIn {
      var reply = ReplyShapes.signIn(
        try await backend.run { try await $0.accounts.signInWithPassword(request) },
        kind: "identitytoolkit#VerifyPasswordResponse")
      reply.registered = true
      return reply
    }
  }

  static func signInWithIdp(_ body: IdpSignInBody, _ context: ServiceContext) async throws -> SignInReply {
    // The provider's answer is in postBody, or for a sign-in through a hosted handler in the
    // query of the URL its page finished on (requestUri); Firebase reads both together.
    let answered = body.requestUri.flatMap(URLComponents.init(string:)).map { $0.query != nil || $0.fragment != nil }
    guard body.postBody != nil || answered == true else { throw FirebaseFailure(.missingPostBody) }
    let postBody = IdpPostBody(requestURI: body.requestUri, postBody: body.postBody)
    guard postBody.providerId != nil else { throw FirebaseFailure(.invalidIdpResponse, "providerId is missing") }
    var credential = ProviderCredential(postBody: postBody)
    credential.pendingToken = body.pendingToken
    credential.sessionID = body.sessionId
    let backend = try await context.backend()
    let response: SignInResponse
    do {
      let request = IdpSignInRequest(
        credential: credential, requestURI: body.requestUri ?? "http://localhost", idToken: body.idToken)
      response = try await backend.run { try await $0.identities.signInWithIdp(request) }
    } catch let error as AuthError where error.isAccountConflict && body.returnIdpCredential == true {
      // As Firebase answers a client that asked for the IdP's credential: status 200, the
      // conflict, the account's email and the IdP's tokens to sign in with instead.
      var reply = SignInReply()
      reply.kind = "identitytoolkit#VerifyAssertionResponse"
      ReplyShapes.describeIdentity(of: credential, in: &reply)
      reply.email = error.email
      reply.providerId = credential.providerID.rawValue
      reply.oauthIdToken = credential.idToken
      reply.oauthAccessToken = fakeAccessToken(credential)
      reply.pendingToken = error.updatedCredential?.pendingToken
      if error.code == .accountExistsWithDifferentCredential {
        reply.needConfirmation = true
      } else {
        reply.errorMessage = error.firebaseFailure?.message ?? error.serverMessage
      }
      return reply
    } catch let error as AuthError where error.secondFactor != nil {
      return ReplyShapes.pendingSecondFactor(error.secondFactor!)
    }
    var reply = ReplyShapes.signIn(response, kind: "identitytoolkit#VerifyAssertionResponse")
    ReplyShapes.describeIdentity(of: credential, in: &reply)
    reply.isNewUser = response.isNewUser
    reply.providerId = credential.providerID.rawValue
    reply.oauthIdToken = credential.idToken
    reply.oauthAccessToken = fakeAccessToken(credential)
    reply.oauthTokenSecret = credential.secret
    return reply
  }

  /// The IdP's access token, or when it sent none the emulator's stand-in
  /// (`FirebaseAuthEmulatorFakeAccessToken_PROVIDER`): the JS SDK builds most providers'
  /// credentials from an access token, so the emulator always returns one.
  private static func fakeAccessToken(_ credential: ProviderCredential) -> String {
    credential.accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(credential.providerID.rawValue)"
  }

  static func signInWithCustomToken(_ body: CustomTokenSignInBody, _ context: ServiceContext) async throws
    -> SignInReply
  {
    let request = CustomTokenSignInRequest(token: try body.required(body.token, .missingCustomToken))
    let backend = try await context.backend()
    return try await ReplyShapes.signingIn {
      let response = try await backend.run({ try await $0.customTokens.signInWithCustomToken(request) })
      var reply = ReplyShapes.tokens(response.tokens)
      reply.isNewUser = response.isNewUser
      reply.kind = "identitytoolkit#VerifyCustomTokenResponse"
      return reply
    }
  }

  static func signInWithEmailLink(_ body: EmailLinkSignInBody, _ context: ServiceContext) async throws -> SignInReply {
    try await context.requireTenant(allows: .emailLink)
    let request = EmailLinkSignInRequest(
      email: try body.required(body.email, .missingEmail), oobCode: try body.required(body.oobCode, .missingOobCode),
      idToken: body.idToken)
    let backend = try await context.backend()
    return try await ReplyShapes.signingIn {
      let response = try await backend.run({ try await $0.mail.signInWithEmailLink(request) })
      var reply = ReplyShapes.signIn(response, kind: "identitytoolkit#EmailLinkSigninResponse")
      reply.isNewUser = response.isNewUser
      return reply
    }
  }

  /// `accounts:sendVerificationCode`. As in the emulator, no proof of the app is needed; a
  /// silent push's receipt that is sent must be one this server issued, with its secret.
  static func sendVerificationCode(_ body: SendVerificationCodeBody, _ context: ServiceContext) async throws
    -> SessionInfoReply
  {
    try await RecaptchaGate.check(body.recaptcha, for: .phone, action: .sendVerificationCode, context)
    if let receipt = body.iosReceipt { try context.projects.pushes.redeem(receipt: receipt, secret: body.iosSecret) }
    let number = body.phoneNumber
    return SessionInfoReply(
      sessionInfo: try await context.backend().run { try await $0.phone.sendVerificationCode(phoneNumber: number) })
  }

  /// `accounts:verifyIosClient`: a receipt for the device token, and the push with its secret in
  /// the outbox (`/emulator/v1/projects/P/pushNotifications`) for a test to deliver.
  static func verifyIosClient(_ body: VerifyIosClientBody, _ context: ServiceContext) async throws
    -> VerifyIosClientReply
  {
    let push = try context.projects.pushes.send(to: try body.required(body.appToken, .missingIosAppToken))
    return VerifyIosClientReply(receipt: push.receipt, suggestedTimeout: "5")
  }

  static func signInWithPhoneNumber(_ body: PhoneSignInBody, _ context: ServiceContext) async throws -> SignInReply {
    let backend = try await context.backend()
    return try await ReplyShapes.signingIn {
      let (response, phone) = try await backend.run {
        try await $0.phone.signIn(sessionInfo: body.sessionInfo, code: body.code, idToken: body.idToken)
      }
      var reply = ReplyShapes.tokens(response.tokens)
      reply.localId = response.localID
      reply.isNewUser = response.isNewUser
      reply.phoneNumber = phone
      return reply
    }
  }

  /// Secure Token's refresh grant. A refresh token names no tenant, so one the project does not
  /// know is tried with each of its tenants; one of a tenant with `disableAuth` is refused.
  static func token(_ body: RefreshGrantBody, _ context: ServiceContext) async throws -> SecureTokenReply {
    guard body.grantType == RefreshGrantBody.refreshTokenGrant else { throw FirebaseFailure(.invalidGrantType) }
    let token = try body.required(body.refreshToken, .missingRefreshToken)
    let response: RefreshResponse
    do {
      response = try await context.project.run { try await $0.tokens.refresh(RefreshTokenRequest(refreshToken: token)) }
    } catch let error as AuthError where error.code == .invalidRefreshToken {
      var found: RefreshResponse?
      for tenant in try await context.tenants.all() where found == nil {
        guard let id = tenant.tenantId, let backend = try await context.tenants.kept(id),
          let refreshed = try? await backend.run({
            try await $0.tokens.refresh(RefreshTokenRequest(refreshToken: token))
          })
        else { continue }
        // A tenant that turned sign-in off keeps its users' sessions from refreshing too.
        guard tenant.disableAuth != true else { throw FirebaseFailure(.projectDisabled) }
        found = refreshed
      }
      guard let found else { throw error }
      response = found
    }
    var reply = SecureTokenReply()
    reply.idToken = response.tokens.idToken
    reply.accessToken = response.tokens.idToken
    reply.refreshToken = response.tokens.refreshToken
    reply.expiresIn = ReplyShapes.seconds(response.tokens.expiresIn)
    reply.tokenType = "Bearer"
    reply.userId = response.userID
    reply.projectId = context.project.configuration.projectID
    return reply
  }
}
