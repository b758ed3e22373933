import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// The account calls a signed-in user makes (lookup, update, delete, emails, action codes), and
/// the administrator's forms of the same calls (`localId` in the body, or a `projects/P` path).
enum AccountEndpoints {
  static func lookup(_ body: LookupBody, _ context: ServiceContext) async throws -> LookupReply {
    let backend = try await context.backend()
    var reply = LookupReply()
    reply.kind = "identitytoolkit#GetAccountInfoResponse"
    guard context.isAdmin, body.idToken == nil else {
      let idToken = try body.required(body.idToken, .missingIdToken)
      let stored = try await backend.run { try $0.accounts.account(of: idToken) }
      // The administrator's record, with the dates Firebase lists for the user itself too; but
      // never the hash (an account with a password gets Firebase's redacted placeholder), the
      // salt, or what only an administrator reads.
      var record = ReplyShapes.adminAccount(stored, of: backend)
      record.passwordHash = stored.password != nil ? AccountRecord.redactedPasswordHash : nil
      record.salt = nil
      record.customAttributes = nil
      record.customAuth = nil
      reply.users = [record]
      return reply
    }
    let federated = (body.federatedUserId ?? []).compactMap { entry -> (ProviderID, String)? in
      guard let provider = entry.providerId, let rawID = entry.rawId else { return nil }
      return (ProviderID(rawValue: provider), rawID)
    }
    let accounts = try await backend.administering({
      try $0.adminLookup(
        uids: body.localId ?? [], emails: body.email ?? [], phones: body.phoneNumber ?? [], federated: federated)
    })
    if !accounts.isEmpty { reply.users = accounts.map { ReplyShapes.adminAccount($0, of: backend) } }
    return reply
  }

  /// `accounts:update`, answered as Firebase's emulator answers it: the account's email, name,
  /// photo and providers, and new tokens when the change replaced them.
  static func update(_ body: UpdateAccountBody, _ context: ServiceContext) async throws -> UpdateAccountReply {
    let backend = try await context.backend()
    if context.isAdmin, context.isScoped || body.localId != nil {
      let uid = try body.required(body.localId, .missingLocalId)
      return ReplyShapes.update(
        try await backend.administering({ try $0.adminUpdate(uid: uid, try changes(body)) }).info, tokens: nil)
    }
    var request = UpdateAccountRequest(idToken: body.idToken)
    request.oobCode = body.oobCode
    request.email = body.email
    request.password = body.password
    request.displayName = body.displayName
    request.photoURL = body.photoUrl.flatMap(URL.init(string:))
    request.deleteAttributes = (body.deleteAttribute ?? []).compactMap(UpdateAccountRequest.Attribute.init)
    request.deleteProviders = (body.deleteProvider ?? []).map(ProviderID.init(rawValue:))
    request.deletePasskeys = try (body.deletePasskey ?? []).map { id in
      guard let bytes = WireBytes.decode(id), !bytes.isEmpty else {
        throw FirebaseFailure(
          .invalidArgument, "deletePasskey holds \(FirebaseFailure.printable(id)), not a credential id")
      }
      return Base64URL.encode(bytes)
    }
    let change = request
    let response = try await backend.run { try await $0.accounts.update(change) }
    return ReplyShapes.update(response.account, tokens: response.tokens)
  }

  /// What an administrator's update sets.
  private static func changes(_ body: UpdateAccountBody) throws -> AdminAccountChanges {
    var changes = AdminAccountChanges(
      email: body.email, phoneNumber: body.phoneNumber, password: body.password, displayName: body.displayName,
      photoURL: body.photoUrl, emailVerified: body.emailVerified, disabled: body.disableUser)
    changes.customAttributes = body.customAttributes
    if let seconds = body.validSince?.value {
      guard RequestNumber.epochSeconds.contains(seconds) else {
        throw FirebaseFailure.invalidValue(
          field: UpdateAccountBody.CodingKeys.validSince.stringValue,
          expected: "TYPE_INT64, seconds from 0 to \(RequestNumber.epochSeconds.upperBound)")
      }
      changes.validSince = Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    changes.deleteAttributes = (body.deleteAttribute ?? []).compactMap(UpdateAccountRequest.Attribute.init)
    changes.deleteProviders = (body.deleteProvider ?? []).map(ProviderID.init(rawValue:))
    return changes
  }

  static func delete(_ body: DeleteAccountBody, _ context: ServiceContext) async throws -> DeleteAccountReply {
    let backend = try await context.backend()
    if context.isAdmin, context.isScoped || body.localId != nil {
      try await backend.deleteUser(uid: try body.required(body.localId, .missingLocalId))
    } else {
      try await backend.run {
        try await $0.accounts.delete(DeleteAccountRequest(idToken: try body.required(body.idToken, .missingIdToken)))
      }
    }
    return DeleteAccountReply(kind: "identitytoolkit#DeleteAccountResponse")
  }

  static func sendOobCode(_ body: SendOobCodeBody, _ context: ServiceContext) async throws -> OobCodeReply {
    let backend = try await context.backend()
    let kind = try body.required(body.requestType, .missingRequestType)
    var reply = OobCodeReply()
    reply.kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    if context.isAdmin, body.returnOobLink == true {
      // The code and a link to this server's action page, instead of an email.
      let email = try body.required(body.email, .missingEmail)
      let code = try await backend.adminActionCode(
        kind: kind, email: email, newEmail: body.newEmail,
        continueURL: body.continueUrl.flatMap(URL.init(string:)))
      reply.email = email.lowercased()
      reply.oobCode = code
      reply.oobLink = EmulatorEndpoints.actionLink(
        baseURL: context.baseURL, kind: kind, code: code, continueURL: body.continueUrl)
      return reply
    }
    let request: OobCodeRequest
    switch kind {
    case .passwordReset: request = .passwordReset(email: try body.required(body.email, .missingEmail))
    case .verifyEmail: request = .verifyEmail(idToken: try body.required(body.idToken, .missingIdToken))
    case .verifyAndChangeEmail:
      request = .verifyAndChangeEmail(
        idToken: try body.required(body.idToken, .missingIdToken),
        newEmail: try body.required(body.newEmail, .missingNewEmail))
    case .emailSignIn:
      try await context.requireTenant(allows: .emailLink)
      request = .emailSignIn(email: try body.required(body.email, .missingEmail))
    case .recoverEmail:
      throw FirebaseFailure(.invalidRequestType)
    }
    if kind == .passwordReset || kind == .emailSignIn {
      try await RecaptchaGate.check(body.recaptcha, for: .emailPassword, action: .getOobCode, context)
    }
    let settings = ActionCodeSettings(
      continueURL: body.continueUrl.flatMap { URL(string: $0) }, handlesCodeInApp: body.canHandleCodeInApp ?? false,
      iOSBundleID: body.iOSBundleId, androidPackageName: body.androidPackageName, linkDomain: body.linkDomain)
    reply.email = try await backend.run { try await $0.mail.sendOobCode(request, settings: settings) }.email
    return reply
  }

  static func resetPassword(_ body: ResetPasswordBody, _ context: ServiceContext) async throws -> ResetPasswordReply {
    try await context.requireTenant(allows: .passwordSignIn)
    let response = try await context.backend().run {
      try await $0.mail.resetPassword(
        ResetPasswordRequest(oobCode: try body.required(body.oobCode, .missingOobCode), newPassword: body.newPassword))
    }
    var reply = ResetPasswordReply()
    reply.kind = "identitytoolkit#ResetPasswordResponse"
    reply.email = response.email
    reply.requestType = response.requestType.flatMap(OobRequestType.init(rawValue:))
    reply.newEmail = response.newEmail
    return reply
  }

  /// How an email signs in, as the emulator answers `accounts:createAuthUri` for an email.
  static func createAuthUri(_ body: CreateAuthUriBody, _ context: ServiceContext) async throws -> CreateAuthUriReply {
    if body.providerId?.isEmpty == false {
      throw FirebaseFailure(
        .invalidProviderId,
        "signin serve answers createAuthUri for an email (identifier); an IdP's sign-in page comes from the app's "
          + "own provider")
    }
    let identifier = try body.required(body.identifier, .missingIdentifier)
    let continueURI = try body.required(body.continueUri, .missingContinueUri)
    guard AccountRules.isEmail(identifier) else { throw FirebaseFailure(.invalidIdentifier) }
    guard let scheme = URL(string: continueURI)?.scheme, !scheme.isEmpty else {
      throw FirebaseFailure(.invalidContinueUri)
    }
    let backend = try await context.backend()
    var reply = CreateAuthUriReply()
    reply.kind = "identitytoolkit#CreateAuthUriResponse"
    reply.sessionId = try body.sessionId ?? EmbeddedDatabase.Account.newUID()
    guard await !backend.emailEnumerationProtection else { return reply }
    let found = try await backend.run { try $0.accounts.signInMethods(forEmail: identifier) }
    reply.registered = found != nil
    reply.allProviders = found?.providers.map(\.rawValue) ?? []
    reply.signinMethods = found?.methods ?? []
    return reply
  }

  /// The project's settings a client SDK reads (the JS SDK checks its page's domain).
  static func projectConfig(_ body: NoBody, _ context: ServiceContext) async throws -> ProjectConfigReply {
    var reply = ProjectConfigReply()
    reply.projectId = context.project.configuration.projectID
    reply.authorizedDomains = context.project.authorizedDomains
    return reply
  }

  /// v2 `passwordPolicy`: the lengths every backend here checks (FieldLimits), not enforced
  /// beyond them, so a client SDK's own check agrees with the server's.
  static func passwordPolicy(_ body: PasswordPolicyQuery, _ context: ServiceContext) async throws
    -> PasswordPolicyReply
  {
    var options = PasswordPolicyReply.StrengthOptions()
    options.minPasswordLength = 6
    options.maxPasswordLength = Double(FieldLimits.password)
    var reply = PasswordPolicyReply()
    reply.enforcementState = "OFF"
    reply.customStrengthOptions = options
    reply.schemaVersion = 1
    reply.forceUpgradeOnSignin = false
    return reply
  }

  /// v2 `accounts:revokeToken`: the provider's token of the signed-in user.
  static func revokeToken(_ body: RevokeTokenBody, _ context: ServiceContext) async throws -> NoBody {
    try await context.backend().run {
      try await $0.identities.revokeToken(
        RevokeTokenRequest(
          providerID: ProviderID(rawValue: try body.required(body.providerId, .missingProviderId)),
          tokenType: .init(try body.required(body.tokenType, .missingTokenType)),
          token: try body.required(body.token, .missingToken), idToken: try body.required(body.idToken, .missingIdToken)
        ))
    }
    return NoBody()
  }
}
