import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded
import SignInWire

/// The Firebase Auth emulator's client API over an ``EmbeddedBackend``: a request's method,
/// target and body in, a status and a JSON body out, on the emulator's URLs
/// (`/identitytoolkit.googleapis.com/v1/accounts:*`, `/securetoken.googleapis.com/v1/token`,
/// `/emulator/v1/projects/{p}/oobCodes`, `GET /`). Failures use Firebase's error envelope with
/// the backend's own error strings (`EMAIL_EXISTS`, `INVALID_ID_TOKEN`…), so a client written
/// for Firebase reads them unchanged.
///
/// No sockets here: ``FirebaseEmulatorServer`` reads requests and writes replies.
///
/// - Concurrency: `Sendable` value; calls may run concurrently (the backend is an actor).
public struct FirebaseEmulatorRoutes: Sendable {
  /// A reply: the status and the JSON body.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Reply: Sendable, Equatable {
    public var status: Int
    public var body: Data
    /// `application/json`, or `text/plain; charset=utf-8` for the action page.
    public var contentType = "application/json"
    /// Headers beyond the status line's and the body's (CORS).
    public var headers: [EmulatorRequestPolicy.Header] = []
  }

  /// The served project: the one client calls reach.
  public let backend: EmbeddedBackend
  /// Which hosts and origins are served, and where links point.
  public let policy: EmulatorRequestPolicy
  /// The served project and the others admin and emulator calls have named.
  let projects: EmulatorProjects

  /// - Parameters:
  ///   - backend: the backend the calls reach.
  ///   - policy: which hosts and origins are served; by default loopback only, on the emulator's
  ///     port 9099.
  public init(backend: EmbeddedBackend, policy: EmulatorRequestPolicy = .loopback(port: 9099)) {
    self.backend = backend
    self.policy = policy
    projects = EmulatorProjects(served: backend)
  }

  /// These routes answering for `backend` (a tenant's), with the same projects and policy.
  private init(answeringFor backend: EmbeddedBackend, as routes: FirebaseEmulatorRoutes) {
    self.backend = backend
    policy = routes.policy
    projects = routes.projects
  }

  /// The reply to one request. Never throws: every failure is a Firebase error reply.
  ///
  /// - Parameters:
  ///   - method: the HTTP method.
  ///   - target: the request target: path and query.
  ///   - headers: the request's headers, names lowercased. `Authorization: Bearer owner` (any
  ///     case, or a `Bearer ya29.…` token) makes the call an administrator's, as the Admin SDKs
  ///     send it in emulator mode. `Host` and `Origin` are checked first (``policy``): a foreign
  ///     one is refused before anything else happens.
  ///   - body: the request body; one that is not empty must be JSON (`Content-Type:
  ///     application/json`), except the Secure Token form.
  public func reply(method: String, target: String, headers: [String: String] = [:], body: Data) async -> Reply {
    switch policy.decide(method: method, headers: headers) {
    case .refuse(let status, let message):
      return Self.failure(status, message)
    case .preflight(let headers):
      return Reply(status: 204, body: Data(), contentType: "text/plain; charset=utf-8", headers: headers)
    case .serve(let cors):
      var reply = await route(method: method, target: target, headers: headers, body: body)
      reply.headers += cors
      return reply
    }
  }

  private func route(method: String, target: String, headers: [String: String], body: Data) async -> Reply {
    let path = String(target.prefix { $0 != "?" })
    if !body.isEmpty, Self.jsonAPIs.contains(where: path.hasPrefix),
      !(headers["content-type"] ?? "").lowercased().hasPrefix("application/json")
    {
      return Self.failure(
        400,
        "INVALID_ARGUMENT : send the body as JSON with Content-Type: application/json (got "
          + "\(EmulatorRequestPolicy.printable(headers["content-type"] ?? "no content type")))")
    }
    if path == "/" || path.isEmpty {
      guard method == "GET" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
      return Self.json(["authEmulator": .object(["ready": .bool(true), "signinkit": .bool(true)])])
    }
    if path == "/identitytoolkit.googleapis.com/v1/projects"
      || path == "/www.googleapis.com/identitytoolkit/v3/relyingparty/getProjectConfig"
    {
      // The project's settings a client SDK reads (the JS SDK checks its page's domain).
      guard method == "GET" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
      guard Self.isAdmin(headers) || Self.namesAnAPIKey(target: target, headers: headers) else {
        return Self.missingAPIKey
      }
      var reply = ProjectConfigReply()
      reply.projectId = backend.configuration.projectID
      reply.authorizedDomains = backend.authorizedDomains
      return Self.reply(reply)
    }
    if let rest = path.dropPrefix("/identitytoolkit.googleapis.com/v1/projects/") {
      guard Self.isAdmin(headers) else {
        return Self.failure(401, "UNAUTHENTICATED : admin calls need the header Authorization: Bearer owner")
      }
      let project = String(rest.prefix { $0 != "/" && $0 != ":" })
      switch projects.backend(for: project) {
      case .refused(let refusal): return refusal
      case .project(var backend):
        var call = String(rest.dropFirst(project.count))
        if let tenantPath = call.dropPrefix("/tenants/") {
          // `projects/P/tenants/T/accounts…`: the tenant's users (made on first use).
          let tenant = String(tenantPath.prefix { $0 != "/" && $0 != ":" })
          do {
            backend = try projects.tenants(of: backend).backend(for: tenant)
          } catch {
            return Self.failure(AuthError.wrapping(error))
          }
          call = String(tenantPath.dropFirst(tenant.count))
        }
        let admin = FirebaseEmulatorAdmin(backend: backend, baseURL: policy.baseURL)
        return await admin.reply(
          method: method, call: call, query: Self.form(Self.query(of: target)), body: body)
      }
    }
    if let rest = path.dropPrefix("/identitytoolkit.googleapis.com/v2/projects/") {
      guard Self.isAdmin(headers) else {
        return Self.failure(401, "UNAUTHENTICATED : admin calls need the header Authorization: Bearer owner")
      }
      return await v2Project(rest, method: method, query: Self.form(Self.query(of: target)), body: body)
    }
    if let name = path.dropPrefix("/identitytoolkit.googleapis.com/v1/accounts:")
      ?? path.dropPrefix("/www.googleapis.com/identitytoolkit/v3/relyingparty/").map(Self.v1Name)
    {
      if Self.isAdmin(headers), let fields = Self.object(body),
        fields["localId"] != nil || name == "sendOobCode" && fields["returnOobLink"]?.bool == true
      {
        // An administrator's call on the project-less URL (`localId`, `returnOobLink`).
        let admin = FirebaseEmulatorAdmin(backend: backend, baseURL: policy.baseURL)
        return await admin.reply(method: method, call: "/accounts:\(name)", query: [:], body: body)
      }
      guard method != "POST" || Self.namesAnAPIKey(target: target, headers: headers) else {
        return Self.missingAPIKey
      }
      // The body is parsed for its tenant only when it names one: most calls do not.
      if body.range(of: Self.tenantField) != nil, let tenant = Self.object(body)?["tenantId"]?.string,
        !tenant.isEmpty
      {
        // A client of a tenant (`auth.tenantId` in the SDKs) reaches that tenant's users.
        do {
          let tenants = projects.tenants(of: backend)
          let backend = try tenants.backend(for: tenant)
          if let refusal = tenants.tenant(tenant)?.refusal(of: name, body: Self.object(body) ?? [:]) {
            return Self.failure(400, refusal)
          }
          return await Self(answeringFor: backend, as: self).post(name, body: body, requestMethod: method)
        } catch {
          return Self.failure(AuthError.wrapping(error))
        }
      }
      return await post(name, body: body, requestMethod: method)
    }
    if method == "POST", Self.clientAPIs.contains(where: path.hasPrefix), !Self.isAdmin(headers),
      !Self.namesAnAPIKey(target: target, headers: headers)
    {
      return Self.missingAPIKey
    }
    if path == "/identitytoolkit.googleapis.com/v2/accounts:revokeToken" {
      return await revokeToken(body, requestMethod: method)
    }
    if let name = path.dropPrefix("/identitytoolkit.googleapis.com/v2/accounts/") {
      return await secondFactor(name, body: body, requestMethod: method)
    }
    if path == "/securetoken.googleapis.com/v1/token" {
      return await refresh(body, requestMethod: method)
    }
    if path == "/emulator/action" {
      guard method == "GET" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
      return await action(Self.form(Self.query(of: target)))
    }
    if let rest = path.dropPrefix("/emulator/v1/projects/"),
      let reply = await FirebaseEmulatorUtilities(projects: projects, baseURL: policy.baseURL)
        .reply(method: method, path: rest, body: body)
    {
      return reply
    }
    return Self.failure(404, "NOT_FOUND: \(path)")
  }

  /// The bytes of the `tenantId` key, looked for in a client call's body before it is parsed.
  static let tenantField = Data("tenantId".utf8)

  /// The client APIs besides `accounts:…`, which need an API key as they do.
  static let clientAPIs = ["/identitytoolkit.googleapis.com/v2/accounts", "/securetoken.googleapis.com/"]

  /// Whether a client call names an API key, in the `key` query parameter or the
  /// `X-Goog-Api-Key` header. Any non-empty key will do, as in the Firebase emulator.
  static func namesAnAPIKey(target: String, headers: [String: String]) -> Bool {
    !(form(query(of: target))["key"] ?? headers["x-goog-api-key"] ?? "").isEmpty
  }

  /// Firebase's answer to a client call without an API key.
  static let missingAPIKey = reply(
    ErrorEnvelope(status: 403, message: "The request is missing a valid API key.", statusName: "PERMISSION_DENIED"),
    status: 403)

  /// The paths whose request bodies are JSON; Secure Token also takes a form, as Firebase's does.
  static let jsonAPIs = [
    "/identitytoolkit.googleapis.com/", "/www.googleapis.com/identitytoolkit/", "/emulator/v1/",
  ]

  // MARK: - Identity Toolkit

  private func post(_ name: String, body: Data, requestMethod: String) async -> Reply {
    guard requestMethod == "POST" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
    do {
      switch name {
      case "signUp": return try await signUp(try SignUpBody.decoded(from: body))
      case "signInWithPassword": return try await signInWithPassword(try PasswordSignInBody.decoded(from: body))
      case "signInWithIdp": return try await signInWithIdp(try IdpSignInBody.decoded(from: body))
      case "signInWithCustomToken":
        let request = try CustomTokenSignInBody.decoded(from: body)
        let response = try await backend.signInWithCustomToken(
          CustomTokenSignInRequest(token: try request.required(request.token, .token)))
        var reply = Self.tokens(response.tokens)
        reply.isNewUser = response.isNewUser
        reply.kind = "identitytoolkit#VerifyCustomTokenResponse"
        return Self.reply(reply)
      case "sendVerificationCode":
        let fields = Self.object(body) ?? [:]
        let sessionInfo = try await backend.sendVerificationCode(phoneNumber: fields["phoneNumber"]?.string)
        return Self.json(["sessionInfo": .string(sessionInfo)])
      case "signInWithPhoneNumber":
        let fields = Self.object(body) ?? [:]
        let (response, phone) = try await backend.signInWithPhoneNumber(
          sessionInfo: fields["sessionInfo"]?.string, code: fields["code"]?.string, idToken: fields["idToken"]?.string)
        var reply = Self.tokens(response.tokens)
        reply.localId = response.localID
        reply.isNewUser = response.isNewUser
        reply.phoneNumber = phone
        return Self.reply(reply)
      case "signInWithEmailLink":
        let request = try EmailLinkSignInBody.decoded(from: body)
        let response = try await backend.signInWithEmailLink(
          EmailLinkSignInRequest(
            email: try request.required(request.email, .email),
            oobCode: try request.required(request.oobCode, .oobCode), idToken: request.idToken))
        var reply = Self.signIn(response)
        reply.isNewUser = response.isNewUser
        reply.kind = "identitytoolkit#EmailLinkSigninResponse"
        return Self.reply(reply)
      case "lookup":
        let request = try IDTokenBody.decoded(from: body)
        let account = try await backend.lookup(LookupRequest(idToken: try request.required(request.idToken, .idToken)))
        var reply = LookupReply()
        reply.kind = "identitytoolkit#GetAccountInfoResponse"
        var record = Self.account(account)
        if let stored = try await backend.adminLookup(uids: [account.localID], emails: []).first {
          // The dates Firebase lists for the user itself too; never the hash.
          let full = FirebaseEmulatorAdmin.account(stored)
          record.validSince = full.validSince
          record.passwordUpdatedAt = full.passwordUpdatedAt
          record.lastRefreshAt = full.lastRefreshAt
        }
        reply.users = [record]
        return Self.reply(reply)
      case "update": return try await update(try UpdateAccountBody.decoded(from: body))
      case "createAuthUri": return try await createAuthUri(try CreateAuthUriBody.decoded(from: body))
      case "delete":
        let request = try IDTokenBody.decoded(from: body)
        try await backend.delete(DeleteAccountRequest(idToken: try request.required(request.idToken, .idToken)))
        return Self.json(["kind": .string("identitytoolkit#DeleteAccountResponse")])
      case "sendOobCode": return try await sendOobCode(try SendOobCodeBody.decoded(from: body))
      case "resetPassword":
        let request = try ResetPasswordBody.decoded(from: body)
        let response = try await backend.resetPassword(
          ResetPasswordRequest(
            oobCode: try request.required(request.oobCode, .oobCode), newPassword: request.newPassword))
        var reply = ResetPasswordReply()
        reply.kind = "identitytoolkit#ResetPasswordResponse"
        reply.email = response.email
        reply.requestType = response.requestType
        reply.newEmail = response.newEmail
        return Self.reply(reply)
      default:
        return Self.failure(404, "NOT_FOUND: accounts:\(name)")
      }
    } catch let error as WireError {
      return Self.failure(400, error.description)
    } catch let error as AuthError where error.secondFactor != nil {
      // Not a failure on the wire: a 200 that asks for the second factor.
      let challenge = error.secondFactor!
      var reply = SignInReply()
      reply.mfaPendingCredential = challenge.pendingCredential
      reply.mfaInfo = challenge.factors.map(Self.secondFactor)
      return Self.reply(reply)
    } catch {
      return Self.failure(AuthError.wrapping(error))
    }
  }

  /// Identity Platform's v2 second-factor calls (`accounts/mfaEnrollment:*`, `mfaSignIn:finalize`).
  /// v2 `accounts:revokeToken`. `tokenType` is the enum's name (`CODE`) or, as FirebaseAuth's
  /// iOS SDK sends it, its number (`"3"`).
  private func revokeToken(_ body: Data, requestMethod: String) async -> Reply {
    guard requestMethod == "POST" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
    let types: [String: RevokeTokenRequest.TokenType] = [
      "CODE": .authorizationCode, "3": .authorizationCode, "REFRESH_TOKEN": .refreshToken, "1": .refreshToken,
      "ACCESS_TOKEN": .accessToken, "2": .accessToken,
    ]
    do {
      let request = try RevokeTokenBody.decoded(from: body)
      let typeName = try request.required(request.tokenType, .tokenType)
      guard let tokenType = types[typeName] else {
        return Self.failure(400, "INVALID_ARGUMENT : tokenType \(typeName) is not CODE, REFRESH_TOKEN or ACCESS_TOKEN")
      }
      try await backend.revokeToken(
        RevokeTokenRequest(
          providerID: ProviderID(rawValue: try request.required(request.providerId, .providerId)),
          tokenType: tokenType, token: try request.required(request.token, .token),
          idToken: try request.required(request.idToken, .idToken)))
      return Self.json([:])
    } catch let error as WireError {
      return Self.failure(400, error.description)
    } catch {
      return Self.failure(AuthError.wrapping(error))
    }
  }

  private func secondFactor(_ name: String, body: Data, requestMethod: String) async -> Reply {
    guard requestMethod == "POST" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
    if let fields = Self.object(body), let reply = await smsSecondFactor(name, fields) { return reply }
    do {
      let fields = try SecondFactorBody.decoded(from: body)
      let verification = fields.totpVerificationInfo ?? TOTPVerificationInfo()
      let request: SecondFactorRequest
      switch name {
      case "mfaEnrollment:start":
        guard fields.totpEnrollmentInfo != nil else {
          return Self.failure(400, "INVALID_ARGUMENT : only totpEnrollmentInfo is served here")
        }
        request = .startTOTPEnrollment(idToken: try fields.required(fields.idToken, .idToken))
      case "mfaEnrollment:finalize":
        request = .finalizeTOTPEnrollment(
          idToken: try fields.required(fields.idToken, .idToken),
          sessionInfo: try verification.required(verification.sessionInfo, .sessionInfo),
          code: try verification.required(verification.verificationCode, .verificationCode),
          displayName: fields.displayName)
      case "mfaEnrollment:withdraw":
        request = .withdraw(
          idToken: try fields.required(fields.idToken, .idToken),
          enrollmentID: try fields.required(fields.mfaEnrollmentId, .mfaEnrollmentId))
      case "mfaSignIn:finalize":
        request = .finalizeTOTPSignIn(
          pendingCredential: try fields.required(fields.mfaPendingCredential, .mfaPendingCredential),
          enrollmentID: try fields.required(fields.mfaEnrollmentId, .mfaEnrollmentId),
          code: try verification.required(verification.verificationCode, .verificationCode))
      default:
        return Self.failure(404, "NOT_FOUND: v2/accounts/\(name)")
      }
      switch try await backend.secondFactor(request) {
      case .secret(let secret):
        var info = TOTPSessionInfo()
        info.sharedSecretKey = secret.secretKey
        info.verificationCodeLength = Double(secret.codeLength)
        info.hashingAlgorithm = secret.hashingAlgorithm
        info.periodSec = Double(secret.codeInterval.components.seconds)
        info.sessionInfo = secret.sessionInfo
        info.finalizeEnrollmentTime = secret.enrollmentDeadline?.formatted(.iso8601)
        var reply = TOTPEnrollmentReply()
        reply.totpSessionInfo = info
        return Self.reply(reply)
      case .tokens(let tokens, _):
        var reply = SignInReply()
        reply.idToken = tokens.idToken
        reply.refreshToken = tokens.refreshToken
        return Self.reply(reply)
      }
    } catch let error as WireError {
      return Self.failure(400, error.description)
    } catch {
      return Self.failure(AuthError.wrapping(error))
    }
  }

  static func secondFactor(_ factor: MultiFactorInfo) -> MFAEnrollment {
    var entry = MFAEnrollment()
    entry.mfaEnrollmentId = factor.enrollmentID
    entry.displayName = factor.displayName
    entry.enrolledAt = factor.enrolledAt?.formatted(.iso8601)
    // The number itself is not kept here: a masked one, as Firebase shows it to a pending sign-in.
    if factor.kind == .totp { entry.totpInfo = EmptyBody() } else { entry.phoneInfo = "+*******" }
    return entry
  }

  private func signUp(_ body: SignUpBody) async throws -> Reply {
    let response = try await backend.signUp(
      SignUpRequest(email: body.email, password: body.password, displayName: body.displayName, idToken: body.idToken))
    var reply = Self.signIn(response)
    reply.kind = "identitytoolkit#SignupNewUserResponse"
    return Self.reply(reply)
  }

  private func signInWithPassword(_ body: PasswordSignInBody) async throws -> Reply {
    let response = try await backend.signInWithPassword(
      PasswordSignInRequest(
        email: try body.required(body.email, .email), password: try body.required(body.password, .password)))
    var reply = Self.signIn(response)
    reply.kind = "identitytoolkit#VerifyPasswordResponse"
    reply.registered = true
    return Self.reply(reply)
  }

  private func signInWithIdp(_ body: IdpSignInBody) async throws -> Reply {
    let credential = try Self.credential(postBody: try body.required(body.postBody, .postBody))
    let response: SignInResponse
    do {
      response = try await backend.signInWithIdp(
        IdpSignInRequest(
          credential: credential, requestURI: body.requestUri ?? "http://localhost", idToken: body.idToken))
    } catch let error as AuthError where error.isAccountConflict && body.returnIdpCredential == true {
      // As Firebase answers a client that asked for the IdP's credential: status 200, the
      // conflict, the account's email and the IdP's tokens to sign in with instead.
      var reply = SignInReply()
      reply.kind = "identitytoolkit#VerifyAssertionResponse"
      reply.email = error.email
      reply.providerId = credential.providerID.rawValue
      reply.oauthIdToken = credential.idToken
      reply.oauthAccessToken = credential.accessToken
      if error.code == .accountExistsWithDifferentCredential {
        reply.needConfirmation = true
      } else {
        reply.errorMessage = error.serverMessage
      }
      return Self.reply(reply)
    }
    var reply = Self.signIn(response)
    reply.kind = "identitytoolkit#VerifyAssertionResponse"
    reply.isNewUser = response.isNewUser
    reply.providerId = credential.providerID.rawValue
    return Self.reply(reply)
  }

  private func update(_ body: UpdateAccountBody) async throws -> Reply {
    var request = UpdateAccountRequest(idToken: body.idToken)
    request.oobCode = body.oobCode
    request.email = body.email
    request.password = body.password
    request.displayName = body.displayName
    request.photoURL = body.photoUrl.flatMap(URL.init(string:))
    request.deleteAttributes = (body.deleteAttribute ?? []).compactMap(UpdateAccountRequest.Attribute.init(rawValue:))
    request.deleteProviders = (body.deleteProvider ?? []).map(ProviderID.init(rawValue:))
    let response = try await backend.update(request)
    var reply = Self.account(response.account)
    reply.kind = "identitytoolkit#SetAccountInfoResponse"
    if let tokens = response.tokens {
      reply.idToken = tokens.idToken
      reply.refreshToken = tokens.refreshToken
      reply.expiresIn = Self.seconds(tokens.expiresIn)
    }
    return Self.reply(reply)
  }

  private func sendOobCode(_ body: SendOobCodeBody) async throws -> Reply {
    let request: OobCodeRequest
    switch body.requestType {
    case "PASSWORD_RESET": request = .passwordReset(email: try body.required(body.email, .email))
    case "VERIFY_EMAIL": request = .verifyEmail(idToken: try body.required(body.idToken, .idToken))
    case "VERIFY_AND_CHANGE_EMAIL":
      request = .verifyAndChangeEmail(
        idToken: try body.required(body.idToken, .idToken), newEmail: try body.required(body.newEmail, .newEmail))
    case "EMAIL_SIGNIN": request = .emailSignIn(email: try body.required(body.email, .email))
    default:
      throw AuthError(
        .invalidResponse, "requestType", serverMessage: "INVALID_REQ_TYPE : Unsupported request parameters.")
    }
    let settings = ActionCodeSettings(
      continueURL: body.continueUrl.flatMap { URL(string: $0) }, handlesCodeInApp: body.canHandleCodeInApp ?? false,
      iOSBundleID: body.iOSBundleId, androidPackageName: body.androidPackageName, linkDomain: body.linkDomain)
    let response = try await backend.sendOobCode(request, settings: settings)
    var reply = OobCodeReply()
    reply.kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    reply.email = response.email
    return Self.reply(reply)
  }

  // MARK: - Secure Token

  private func refresh(_ body: Data, requestMethod: String) async -> Reply {
    guard requestMethod == "POST" else { return Self.failure(405, "METHOD_NOT_ALLOWED") }
    let grant =
      (try? RefreshGrantBody.decoded(from: body))
      ?? RefreshGrantBody.decoded(form: Self.form(String(decoding: body, as: UTF8.self)))
    guard grant.grantType == RefreshGrantBody.refreshTokenGrant else { return Self.failure(400, "INVALID_GRANT_TYPE") }
    guard let token = grant.refreshToken, !token.isEmpty else { return Self.failure(400, "MISSING_REFRESH_TOKEN") }
    do {
      let response = try await refreshAnywhere(token)
      var reply = SecureTokenReply()
      reply.idToken = response.tokens.idToken
      reply.accessToken = response.tokens.idToken
      reply.refreshToken = response.tokens.refreshToken
      reply.expiresIn = Self.seconds(response.tokens.expiresIn)
      reply.tokenType = "Bearer"
      reply.userId = response.userID
      reply.projectId = backend.configuration.projectID
      return Self.reply(reply)
    } catch {
      return Self.failure(AuthError.wrapping(error))
    }
  }

  /// The project's refresh, or a tenant's when the project does not know the token: a refresh
  /// token is random, and the grant names no tenant.
  private func refreshAnywhere(_ token: String) async throws -> RefreshResponse {
    do {
      return try await backend.refresh(RefreshTokenRequest(refreshToken: token))
    } catch let error as AuthError where error.code == .invalidRefreshToken {
      for tenant in projects.tenants(of: backend).backends {
        if let response = try? await tenant.refresh(RefreshTokenRequest(refreshToken: token)) { return response }
      }
      throw error
    }
  }

  /// How an email signs in, as the emulator answers `accounts:createAuthUri` for an email.
  private func createAuthUri(_ body: CreateAuthUriBody) async throws -> Reply {
    if body.providerId?.isEmpty == false {
      return Self.failure(
        400,
        "INVALID_PROVIDER_ID : signin serve answers createAuthUri for an email (identifier); an IdP's "
          + "sign-in page comes from the app's own provider")
    }
    let identifier = try body.required(body.identifier, .identifier)
    let continueURI = try body.required(body.continueUri, .continueUri)
    guard EmbeddedBackend.isEmail(identifier) else { return Self.failure(400, "INVALID_IDENTIFIER") }
    guard let scheme = URL(string: continueURI)?.scheme, !scheme.isEmpty else {
      return Self.failure(400, "INVALID_CONTINUE_URI")
    }
    var reply = CreateAuthUriReply()
    reply.kind = "identitytoolkit#CreateAuthUriResponse"
    reply.sessionId = try body.sessionId ?? EmbeddedBackend.newUID()
    guard await !backend.emailEnumerationProtection else { return Self.reply(reply) }
    let found = try await backend.signInMethods(forEmail: identifier)
    reply.registered = found != nil
    reply.allProviders = found?.providers ?? []
    reply.signinMethods = found?.methods ?? []
    return Self.reply(reply)
  }

  // MARK: - Emulator utilities

  /// The page an out-of-band link opens: `mode=verifyEmail` (or `verifyAndChangeEmail`)
  /// verifies the address; `mode=resetPassword` sets `newPassword` when the link carries one and
  /// otherwise says how; `mode=signIn` says where the link is used (the app signs in with it).
  private func action(_ query: [String: String]) async -> Reply {
    func page(_ status: Int, _ text: String) -> Reply {
      Reply(status: status, body: Data((text + "\n").utf8), contentType: "text/plain; charset=utf-8")
    }
    guard let code = query["oobCode"], !code.isEmpty else {
      return page(400, "This link has no oobCode. Copy the whole link from the email.")
    }
    do {
      switch query["mode"] {
      case "verifyEmail", "verifyAndChangeEmail":
        let response = try await backend.update(UpdateAccountRequest(idToken: nil, oobCode: code))
        return page(200, "The email address \(response.account.email ?? "") is verified. You can close this page.")
      case "signIn":
        let email = try await backend.resetPassword(ResetPasswordRequest(oobCode: code)).email ?? ""
        return page(
          200,
          "This link signs in \(email). Open it in the app that asked for it, or pass the whole link to "
            + "Auth.signIn(email:link:) (the REPL's signin-link EMAIL LINK).")
      case "resetPassword":
        guard let newPassword = query["newPassword"] else {
          let email = try await backend.resetPassword(ResetPasswordRequest(oobCode: code)).email ?? ""
          return page(
            200,
            "This link resets the password of \(email). Open it again with &newPassword=… added, "
              + "or send its oobCode with a newPassword to accounts:resetPassword.")
        }
        let email = try await backend.resetPassword(ResetPasswordRequest(oobCode: code, newPassword: newPassword)).email
        return page(200, "The password of \(email ?? "the account") is changed. Sign in with the new one.")
      default:
        return page(
          400,
          "This link's mode is not verifyEmail, verifyAndChangeEmail, resetPassword or signIn. "
            + "Copy the whole link from the email.")
      }
    } catch {
      return page(400, AuthError.wrapping(error).message)
    }
  }
}
