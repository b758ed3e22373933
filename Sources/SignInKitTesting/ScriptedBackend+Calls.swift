import Foundation
import SignInCrypto
import SignInKit

extension ScriptedBackend {
  public func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    try await begin(.signUp, request)
    return try model.withLock { model in
      if let token = request.idToken {
        let uid = try Self.owner(of: token, in: model)
        let (email, password) = try Self.validated(request.email, request.password)
        guard !model.accounts.values.contains(where: { $0.email == email && $0.uid != uid }) else {
          throw AuthError(.emailAlreadyInUse, "The email address is already in use.")
        }
        model.accounts[uid]?.email = email
        model.accounts[uid]?.password = password
        return issue(for: uid, isNewUser: false, in: &model)
      }
      let uid = "uid-\(model.next())"
      var account = Account(uid: uid, createdAt: now(), lastLoginAt: now())
      if request.email != nil || request.password != nil {
        let (email, password) = try Self.validated(request.email, request.password)
        guard !model.accounts.values.contains(where: { $0.email == email }) else {
          throw AuthError(.emailAlreadyInUse, "The email address is already in use.")
        }
        account.email = email
        account.password = password
        account.displayName = request.displayName
      }
      model.accounts[uid] = account
      return issue(for: uid, isNewUser: true, in: &model)
    }
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithPassword, request)
    return try model.withLock { model in
      let email = request.email.lowercased()
      guard let account = model.accounts.values.first(where: { $0.email == email }) else {
        throw AuthError(.userNotFound, "There is no account for that email.")
      }
      guard !account.disabled else { throw AuthError(.userDisabled, "The account is disabled.") }
      guard account.password == request.password else {
        throw AuthError(.wrongPassword, "The password is wrong.")
      }
      model.accounts[account.uid]?.lastLoginAt = now()
      return issue(for: account.uid, isNewUser: false, in: &model)
    }
  }

  /// The scripted backend's custom tokens are JSON objects naming the user, `{"uid":"u1"}`, as
  /// the Firebase emulator accepts them; the account is made on first use.
  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithCustomToken, request)
    let object = try? JSONSerialization.jsonObject(with: Data(request.token.utf8)) as? [String: Any]
    guard let uid = object?["uid"] as? String, !uid.isEmpty else {
      throw AuthError(.invalidCredential, "The custom token is malformed or expired.")
    }
    return try model.withLock { model in
      let isNew = model.accounts[uid] == nil
      if isNew { model.accounts[uid] = Account(uid: uid, createdAt: now(), lastLoginAt: now()) }
      guard model.accounts[uid]?.disabled == false else { throw AuthError(.userDisabled, "The account is disabled.") }
      model.accounts[uid]?.lastLoginAt = now()
      return issue(for: uid, isNewUser: isNew, in: &model)
    }
  }

  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithIdp, request)
    return try model.withLock { model in
      let credential = request.credential
      guard let token = credential.idToken ?? credential.accessToken, !token.isEmpty else {
        throw AuthError(.invalidCredential, "The credential has no token.")
      }
      // A JWT names its user (`sub`), so every token of one IdP account finds the same user;
      // an opaque token is its own user.
      let rawID = (try? JSONWebToken(decoding: token))?.subject ?? token
      let info = ProviderInfo(providerID: credential.providerID, rawID: rawID)
      let owner = model.accounts.values.first { account in
        account.federated.contains { $0.providerID == info.providerID && $0.rawID == rawID }
      }
      if let token = request.idToken {
        let uid = try Self.owner(of: token, in: model)
        if let owner, owner.uid != uid {
          throw AuthError(.credentialAlreadyInUse, "This credential is linked to another account.")
        }
        if owner == nil { model.accounts[uid]?.federated.append(info) }
        return issue(for: uid, isNewUser: false, in: &model)
      }
      if let owner {
        guard !owner.disabled else { throw AuthError(.userDisabled, "The account is disabled.") }
        return issue(for: owner.uid, isNewUser: false, in: &model)
      }
      let uid = "uid-\(model.next())"
      model.accounts[uid] = Account(
        uid: uid, federated: [info], createdAt: now(), lastLoginAt: now())
      return issue(for: uid, isNewUser: true, in: &model)
    }
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    try await begin(.refresh, request)
    return try model.withLock { model in
      guard let uid = model.refreshTokens[request.refreshToken] else {
        throw AuthError(.invalidRefreshToken, "The refresh token is invalid or revoked.")
      }
      guard let account = model.accounts[uid] else {
        throw AuthError(.userNotFound, "The account no longer exists.")
      }
      guard !account.disabled else { throw AuthError(.userDisabled, "The account is disabled.") }
      let idToken = "id.\(uid).\(model.next())"
      model.idTokens[idToken] = uid
      return RefreshResponse(
        userID: uid,
        tokens: IssuedTokens(
          idToken: idToken, refreshToken: request.refreshToken, expiresIn: tokenLifetime))
    }
  }

  public func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    try await begin(.lookup, request)
    return try model.withLock { model in
      let uid = try Self.owner(of: request.idToken, in: model)
      return model.accounts[uid]!.info
    }
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    try await begin(.update, request)
    return try model.withLock { model in
      if let code = request.oobCode, request.idToken == nil {
        guard let entry = model.oobCodes[code], ["VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL"].contains(entry.kind) else {
          throw AuthError(.invalidActionCode, "The action code is invalid or was already used.")
        }
        model.oobCodes[code] = nil
        if let newEmail = entry.email { model.accounts[entry.uid]?.email = newEmail }
        model.accounts[entry.uid]?.emailVerified = true
        return UpdateAccountResponse(account: model.accounts[entry.uid]!.info)
      }
      let uid = try Self.owner(of: request.idToken ?? "", in: model)
      var account = model.accounts[uid]!
      var newTokens = false
      if let email = request.email {
        let (valid, _) = try Self.validated(email, "unused")
        guard !model.accounts.values.contains(where: { $0.email == valid && $0.uid != uid }) else {
          throw AuthError(.emailAlreadyInUse, "The email address is already in use.")
        }
        account.email = valid
        account.emailVerified = false
        newTokens = true
      }
      if let password = request.password {
        (_, account.password) = try Self.validated("a@b.c", password)
        newTokens = true
      }
      if let name = request.displayName { account.displayName = name }
      if let url = request.photoURL { account.photoURL = url }
      if request.deleteAttributes.contains(.displayName) { account.displayName = nil }
      if request.deleteAttributes.contains(.photoURL) { account.photoURL = nil }
      account.federated.removeAll { request.deleteProviders.contains($0.providerID) }
      if request.deleteProviders.contains(.password) {
        account.email = nil
        account.password = nil
      }
      model.accounts[uid] = account
      guard newTokens else { return UpdateAccountResponse(account: account.info) }
      model.refreshTokens = model.refreshTokens.filter { $0.value != uid }
      model.idTokens = model.idTokens.filter { $0.value != uid }
      let issued = issue(for: uid, isNewUser: false, in: &model)
      return UpdateAccountResponse(account: account.info, tokens: issued.tokens)
    }
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    try await begin(.delete, request)
    try model.withLock { model in
      let uid = try Self.owner(of: request.idToken, in: model)
      model.accounts[uid] = nil
      model.refreshTokens = model.refreshTokens.filter { $0.value != uid }
      model.idTokens = model.idTokens.filter { $0.value != uid }
    }
  }

  /// Second factors are not scripted here: recorded, then refused as a backend without them
  /// refuses them.
  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    try await begin(.secondFactor, request)
    throw AuthError(
      .operationNotAllowed,
      "This backend has no second factors; use FirebaseBackend (Identity Platform) or EmbeddedBackend.")
  }

  /// Recorded, and otherwise nothing: like Firebase's REST API, which has no call that revokes
  /// one refresh token, the refresh token keeps working at the backend after a sign-out.
  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {
    try await begin(.revokeRefreshToken, request)
  }

  /// Revokes Apple's token: any non-empty code works once, for a user linked to Apple.
  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    try await begin(.revokeToken, request)
    try model.withLock { model in
      let uid = try Self.owner(of: request.idToken, in: model)
      guard request.providerID == .apple, request.tokenType == .authorizationCode else {
        throw AuthError(.operationNotAllowed, "Only Apple's token can be revoked, with an authorization code.")
      }
      guard model.accounts[uid]?.federated.contains(where: { $0.providerID == .apple }) == true else {
        throw AuthError(.invalidCredential, "This account has no Sign in with Apple to revoke.")
      }
      guard !request.token.isEmpty, model.usedProviderCodes.insert(request.token).inserted else {
        throw AuthError(.invalidCredential, "The authorization code is invalid or was already used.")
      }
    }
  }

  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    try await begin(.sendOobCode, request)
    return try model.withLock { model in
      let uid: String
      var to: String?
      var newEmail: String?
      switch request {
      case .passwordReset(let email):
        guard let found = model.accounts.values.first(where: { $0.email == email.lowercased() })
        else { throw AuthError(.userNotFound, "There is no account for that email.") }
        (uid, to) = (found.uid, found.email)
      case .verifyEmail(let token):
        uid = try Self.owner(of: token, in: model)
        to = model.accounts[uid]!.email
      case .verifyAndChangeEmail(let token, let email):
        uid = try Self.owner(of: token, in: model)
        (newEmail, _) = try Self.validated(email, "unused")
        guard !model.accounts.values.contains(where: { $0.email == newEmail && $0.uid != uid }) else {
          throw AuthError(.emailAlreadyInUse, "The email address is already in use.")
        }
        to = newEmail
      case .emailSignIn(let email):
        guard settings?.continueURL != nil else {
          throw AuthError(.misconfigured, "A sign-in link needs a continue URL in its ActionCodeSettings.")
        }
        let (valid, _) = try Self.validated(email, "unused")
        (uid, to, newEmail) = ("", valid, valid)
      }
      guard let to else { throw AuthError(.invalidEmail, "The account has no email address.") }
      let code = "code-\(model.next())"
      model.oobCodes[code] = (uid, request.requestType, newEmail)
      model.outbox[to, default: []].append(code)
      return OobCodeResponse(email: to)
    }
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithEmailLink, request)
    return try model.withLock { model in
      let (email, _) = try Self.validated(request.email, "unused")
      guard let entry = model.oobCodes[request.oobCode], entry.kind == "EMAIL_SIGNIN" else {
        throw AuthError(.invalidActionCode, "The action code is invalid or was already used.")
      }
      guard entry.email == email else {
        throw AuthError(.invalidEmail, "This sign-in link was sent to another address.")
      }
      model.oobCodes[request.oobCode] = nil
      let existing = model.accounts.values.first { $0.email == email }
      let linking = try request.idToken.map { try Self.owner(of: $0, in: model) }
      if let linking, let existing, existing.uid != linking {
        throw AuthError(.emailAlreadyInUse, "The email address is already in use.")
      }
      let uid = linking ?? existing?.uid ?? "uid-\(model.next())"
      let isNew = model.accounts[uid] == nil
      if isNew { model.accounts[uid] = Account(uid: uid, createdAt: now(), lastLoginAt: now()) }
      model.accounts[uid]?.email = email
      model.accounts[uid]?.emailVerified = true
      model.accounts[uid]?.lastLoginAt = now()
      return issue(for: uid, isNewUser: isNew, in: &model)
    }
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    try await begin(.resetPassword, request)
    return try model.withLock { model in
      guard let entry = model.oobCodes[request.oobCode] else {
        throw AuthError(.invalidActionCode, "The action code is invalid or was already used.")
      }
      guard let newPassword = request.newPassword else {
        // Reading a code, of any kind, leaves it usable.
        let changesEmail = entry.kind == "VERIFY_AND_CHANGE_EMAIL"
        return ResetPasswordResponse(
          email: entry.kind == "EMAIL_SIGNIN" ? entry.email : model.accounts[entry.uid]?.email,
          requestType: entry.kind, newEmail: changesEmail ? entry.email : nil)
      }
      guard entry.kind == "PASSWORD_RESET", let account = model.accounts[entry.uid] else {
        throw AuthError(.invalidActionCode, "The action code is invalid or was already used.")
      }
      (_, model.accounts[entry.uid]!.password) = try Self.validated("a@b.c", newPassword)
      model.accounts[entry.uid]!.emailVerified = true
      model.oobCodes[request.oobCode] = nil
      model.refreshTokens = model.refreshTokens.filter { $0.value != entry.uid }
      return ResetPasswordResponse(email: account.email, requestType: entry.kind)
    }
  }

  // MARK: - Model steps

  private func issue(for uid: String, isNewUser: Bool, in model: inout Model) -> SignInResponse {
    let serial = model.next()
    let idToken = "id.\(uid).\(serial)"
    let refreshToken = "rt.\(uid).\(serial)"
    model.idTokens[idToken] = uid
    model.refreshTokens[refreshToken] = uid
    return SignInResponse(
      localID: uid, email: model.accounts[uid]?.email,
      tokens: IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: tokenLifetime),
      isNewUser: isNewUser)
  }

  private static func owner(of idToken: String, in model: Model) throws -> String {
    guard let uid = model.idTokens[idToken] else {
      throw AuthError(.sessionExpired, "The ID token is invalid or revoked. Sign in again.")
    }
    guard let account = model.accounts[uid] else {
      throw AuthError(.userNotFound, "The account no longer exists.")
    }
    guard !account.disabled else { throw AuthError(.userDisabled, "The account is disabled.") }
    return uid
  }

  private static func validated(_ email: String?, _ password: String?) throws -> (String, String) {
    guard let email, email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
      throw AuthError(.invalidEmail, "The email address is badly formatted.")
    }
    guard let password, password.count >= 6 else {
      throw AuthError(
        .weakPassword, "The password must be at least 6 characters.",
        serverMessage: "WEAK_PASSWORD : Password should be at least 6 characters")
    }
    return (email.lowercased(), password)
  }
}

extension ScriptedBackend.Account {
  var info: AccountInfo {
    AccountInfo(
      localID: uid, email: email, emailVerified: emailVerified, displayName: displayName,
      photoURL: photoURL, disabled: disabled,
      providers: AccountInfo.providers(
        federated: federated, passwordEmail: password == nil ? nil : email),
      createdAt: createdAt, lastLoginAt: lastLoginAt)
  }
}
