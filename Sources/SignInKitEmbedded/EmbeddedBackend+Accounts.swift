import Foundation
import SignInKit

extension EmbeddedBackend {
  /// `accounts:signUp`. With an ID token it links an email and password to that user: adding
  /// them to an account that has neither (an anonymous or federated one) needs no recent
  /// sign-in, but replacing an email or password it has follows `accounts:update`'s rule
  /// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN` unless the sign-in is recent). Either way the account's
  /// other sessions are revoked; the caller gets new tokens.
  public func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    if let token = request.idToken {
      var (uid, provider) = try verifiedUser(of: token)
      if let account = database.accounts[uid], account.email != nil || account.password != nil {
        (uid, provider) = try verifiedRecentUser(of: token)
      }
      let (email, password) = try validated(request.email, request.password)
      let hash = try PasswordHash.make(password, parameters: configuration.scrypt)
      return try commit { database in
        guard !database.accounts.values.contains(where: { $0.email == email && $0.uid != uid })
        else { throw Self.emailExists }
        if database.accounts[uid]!.email != email { database.accounts[uid]!.emailVerified = false }
        database.accounts[uid]!.email = email
        database.accounts[uid]!.password = hash
        Self.revokeSessions(of: uid, at: now(), in: &database)
        let tokens = try issueTokens(
          for: uid, provider: provider == .anonymous ? .password : provider, in: &database)
        return SignInResponse(localID: uid, email: email, tokens: tokens, isNewUser: false)
      }
    }
    let uid = try Self.newUID()
    var account = EmbeddedDatabase.Account(
      uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now())
    var provider = ProviderID.anonymous
    if request.email != nil || request.password != nil {
      let (email, password) = try validated(request.email, request.password)
      account.email = email
      account.password = try PasswordHash.make(password, parameters: configuration.scrypt)
      account.displayName = request.displayName
      provider = .password
    }
    return try commit { database in
      if let email = account.email, database.accounts.values.contains(where: { $0.email == email }) {
        throw Self.emailExists
      }
      database.accounts[uid] = account
      let tokens = try issueTokens(for: uid, provider: provider, in: &database)
      return SignInResponse(localID: uid, email: account.email, tokens: tokens, isNewUser: true)
    }
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    let email = request.email.lowercased()
    guard Self.isEmail(email) else {
      throw Self.failure(.invalidEmail, "INVALID_EMAIL", "The email address is badly formatted.")
    }
    try checkThrottle(for: email)
    let account = database.accounts.values.first(where: { $0.email == email })
    if let account, account.disabled {
      throw Self.failure(.userDisabled, "USER_DISABLED", "An administrator disabled this account.")
    }
    guard let account, let hash = account.password else {
      if configuration.emailEnumerationProtection {
        // The same work and the same answer as a wrong password.
        try PasswordHash.spendVerificationCost(request.password, parameters: configuration.scrypt)
        loginFailures[email, default: []].append(now())
      }
      throw loginFailure(
        .userNotFound, "EMAIL_NOT_FOUND", "There is no account for that email. Sign up first.")
    }
    guard try hash.matches(request.password) else {
      loginFailures[email, default: []].append(now())
      throw loginFailure(.wrongPassword, "INVALID_PASSWORD", "The password is wrong.")
    }
    // A hash made at a lower cost than configured is made again now, while the password is known.
    let upgraded =
      hash.isWeaker(than: configuration.scrypt)
      ? try PasswordHash.make(request.password, parameters: configuration.scrypt) : nil
    return try finishFirstFactor(.password) { database in
      if let upgraded { database.accounts[account.uid]!.password = upgraded }
      return FirstFactor(uid: account.uid, email: email)
    }
  }

  /// The key wrong passwords and wrong second-factor codes are counted under: the account's
  /// email, or its uid when it has none.
  static func throttleKey(of account: EmbeddedDatabase.Account) -> String {
    account.email ?? "uid:\(account.uid)"
  }

  /// Refuses an attempt that comes too soon after too many failures for `key` (an email, or
  /// ``throttleKey(of:)``); see ``Configuration/maxFailedAttempts``.
  func checkThrottle(for key: String) throws {
    let windowStart = now().addingTimeInterval(-configuration.attemptWindow.seconds)
    let recent = (loginFailures[key] ?? []).filter { $0 > windowStart }
    loginFailures[key] = recent.isEmpty ? nil : recent
    guard recent.count >= configuration.maxFailedAttempts, let last = recent.last else { return }
    let doublings = min(recent.count - configuration.maxFailedAttempts, 20)
    let delay = min(configuration.throttleDelay.seconds * Double(1 << doublings), configuration.attemptWindow.seconds)
    let wait = last.addingTimeInterval(delay).timeIntervalSince(now())
    guard wait > 0 else { return }
    throw Self.failure(
      .tooManyRequests, "TOO_MANY_ATTEMPTS_TRY_LATER",
      "Too many failed sign-in attempts for this email. Try again in \(Int(wait.rounded(.up))) seconds, "
        + "or reset the password.")
  }

  public func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    let (uid, _) = try verifiedUser(of: request.idToken)
    return database.accounts[uid]!.info
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    if let code = request.oobCode, request.idToken == nil {
      return try commit { database in
        let entry = try Self.takeCode(
          code, kinds: ["VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL"], now: now(), in: &database)
        guard database.accounts[entry.uid] != nil else {
          throw Self.failure(.userNotFound, "USER_NOT_FOUND", "The account no longer exists.")
        }
        if let newEmail = entry.newEmail {
          guard !database.accounts.values.contains(where: { $0.email == newEmail && $0.uid != entry.uid })
          else { throw Self.emailExists }
          database.accounts[entry.uid]!.email = newEmail
        }
        database.accounts[entry.uid]!.emailVerified = true
        return UpdateAccountResponse(account: database.accounts[entry.uid]!.info)
      }
    }
    let changesCredentials = request.email != nil || request.password != nil
    let (uid, provider) =
      changesCredentials
      ? try verifiedRecentUser(of: request.idToken ?? "") : try verifiedUser(of: request.idToken ?? "")
    var newEmail: String?
    var newHash: PasswordHash?
    if let email = request.email {
      newEmail = try validated(email, "unchecked").0
    }
    if let password = request.password {
      newHash = try PasswordHash.make(
        try validated("valid@example.com", password).1, parameters: configuration.scrypt)
    }
    return try commit { database in
      var account = database.accounts[uid]!
      if let newEmail {
        guard !database.accounts.values.contains(where: { $0.email == newEmail && $0.uid != uid })
        else { throw Self.emailExists }
        account.email = newEmail
        account.emailVerified = false
      }
      if let newHash { account.password = newHash }
      if let name = request.displayName { account.displayName = name }
      if let photo = request.photoURL { account.photoURL = photo }
      if request.deleteAttributes.contains(.displayName) { account.displayName = nil }
      if request.deleteAttributes.contains(.photoURL) { account.photoURL = nil }
      account.federated.removeAll { request.deleteProviders.contains($0.providerID) }
      if request.deleteProviders.contains(.password) { account.password = nil }
      database.accounts[uid] = account
      guard newEmail != nil || newHash != nil else {
        return UpdateAccountResponse(account: account.info)
      }
      // New credentials revoke every earlier session.
      Self.revokeSessions(of: uid, at: now(), in: &database)
      let tokens = try issueTokens(for: uid, provider: provider, in: &database)
      return UpdateAccountResponse(account: database.accounts[uid]!.info, tokens: tokens)
    }
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    let (uid, _) = try verifiedRecentUser(of: request.idToken)
    try deleteUser(uid: uid)
  }

  // MARK: - Rules

  static let emailExists = failure(
    .emailAlreadyInUse, "EMAIL_EXISTS",
    "An account already uses this email. Sign in instead, or use another address.")

  static func revokeSessions(of uid: String, at date: Date, in database: inout EmbeddedDatabase) {
    database.refreshTokens = database.refreshTokens.filter { $0.value.uid != uid }
    database.accounts[uid]?.validSince = date
  }

  /// Under enumeration protection an unknown email and a wrong password look the same.
  func loginFailure(_ code: AuthError.Code, _ server: String, _ message: String) -> AuthError {
    guard configuration.emailEnumerationProtection else { return Self.failure(code, server, message) }
    return Self.failure(
      .invalidCredential, "INVALID_LOGIN_CREDENTIALS", "The email or the password is wrong.")
  }

  func validated(_ email: String?, _ password: String?) throws -> (String, String) {
    guard let email, !email.isEmpty else {
      throw Self.failure(.invalidEmail, "MISSING_EMAIL", "Enter an email address.")
    }
    guard Self.isEmail(email) else {
      throw Self.failure(.invalidEmail, "INVALID_EMAIL", "The email address is badly formatted.")
    }
    guard let password, password.count >= 6 else {
      throw Self.failure(
        .weakPassword, "WEAK_PASSWORD : Password should be at least 6 characters",
        "The password must be at least 6 characters.")
    }
    return (email.lowercased(), password)
  }

  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
      && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".") && !text.contains(" ")
  }
}

extension EmbeddedDatabase.Account {
  var info: AccountInfo {
    AccountInfo(
      localID: uid, email: email, emailVerified: emailVerified, displayName: displayName,
      photoURL: photoURL, disabled: disabled,
      providers: AccountInfo.providers(
        federated: federated, passwordEmail: password != nil || emailLinkSignIn == true ? email : nil),
      createdAt: createdAt, lastLoginAt: lastLoginAt,
      secondFactors: (secondFactors ?? []).map {
        MultiFactorInfo(
          enrollmentID: $0.enrollmentID, kind: .totp, displayName: $0.displayName, enrolledAt: $0.enrolledAt)
      })
  }
}

extension EmbeddedBackend {
  /// The emails of the accounts here, sorted; with `provider`, only the emails those accounts
  /// use at that IdP (what an account chooser at the IdP would list).
  public func emails(signedInWith provider: ProviderID? = nil) -> [String] {
    let emails = database.accounts.values.flatMap { account -> [String] in
      guard let provider else { return account.email.map { [$0] } ?? [] }
      return account.federated.filter { $0.providerID == provider }.compactMap(\.email)
    }
    return Set(emails).sorted()
  }
}
