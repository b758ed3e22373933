import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// Accounts that sign in with an email and a password (or none yet: anonymous), and the calls
/// of a signed-in user on the account: look up, update, delete.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor
///   (`EmbeddedBackend.accounts`); its async calls run on their caller's actor.
package struct PasswordAccounts {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer
  let steps: SignInSteps
  let throttle: LoginThrottle
  let administration: AccountAdministration
  let mail: ActionCodeMail
  /// ``EmbeddedBackend/emailEnumerationProtection`` when this was made.
  let emailEnumerationProtection: Bool

  /// `accounts:signUp`. With an ID token it links an email and password to that user: adding
  /// them to an account that has neither (an anonymous or federated one) needs no recent
  /// sign-in, but replacing an email or password it has follows `accounts:update`'s rule
  /// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN` unless the sign-in is recent). Either way the account's
  /// other sessions are revoked; the caller gets new tokens.
  package nonisolated(nonsending) func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    if let token = request.idToken {
      var (uid, provider) = try tokens.verifiedUser(of: token)
      if let account = try store.account(uid: uid), account.email != nil || account.password != nil {
        (uid, provider) = try tokens.verifiedRecentUser(of: token)
      }
      let (email, password) = try AccountRules.validated(request.email, request.password)
      let hash = try PasswordHash.make(password, parameters: configuration.scrypt)
      let linked = uid
      return try await store.transaction {
        guard try !store.emailIsTaken(email, byOtherThan: uid) else { throw AccountRules.emailExists }
        try store.updateAccount(uid: uid) { account in
          if account.email != email { account.emailVerified = false }
          account.email = email
          account.setPassword(hash, at: now())
        }
        try administration.revokeSessions(of: uid, at: now())
        let tokens = try self.tokens.mintTokens(
          for: uid, provider: provider.provider == .anonymous ? .password : provider.provider,
          authTime: provider.authTime)
        return UnsignedReply(tokens: tokens) {
          SignInResponse(localID: linked, email: email, tokens: $0, isNewUser: false)
        }
      }.signed()
    }
    let uid = try EmbeddedDatabase.Account.newUID()
    var account = EmbeddedDatabase.Account(
      uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now())
    var provider = ProviderID.anonymous
    if request.email != nil || request.password != nil {
      let (email, password) = try AccountRules.validated(request.email, request.password)
      account.email = email
      account.setPassword(try PasswordHash.make(password, parameters: configuration.scrypt), at: now())
      try FieldLimits.checkProfile(displayName: request.displayName, photoURL: nil)
      account.displayName = request.displayName
      provider = .password
    }
    let email = account.email
    return try await store.transaction {
      if let email, try store.emailIsTaken(email) { throw AccountRules.emailExists }
      try store.save(account)
      let tokens = try self.tokens.mintTokens(for: uid, provider: provider)
      return UnsignedReply(tokens: tokens) { SignInResponse(localID: uid, email: email, tokens: $0, isNewUser: true) }
    }.signed()
  }

  package nonisolated(nonsending) func signInWithPassword(_ request: PasswordSignInRequest) async throws
    -> SignInResponse
  {
    let email = request.email.lowercased()
    guard AccountRules.isEmail(email) else {
      throw AuthError(firebase: .invalidEmail)
    }
    try throttle.checkThrottle(for: email)
    let account = try store.account(email: email)
    if let account, account.disabled {
      throw AuthError(firebase: .userDisabled)
    }
    let password = request.password
    let scrypt = configuration.scrypt
    guard let account, let hash = account.password else {
      if emailEnumerationProtection {
        // The same work and the same answer as a wrong password.
        try PasswordHash.spendVerificationCost(password, parameters: scrypt)
        try throttle.noteLoginFailure(email)
      }
      throw loginFailure(.emailNotFound, "There is no account for that email. Sign up first.")
    }
    // A hash at the configured cost is checked here, as every sign-in costs; any other (an
    // imported one, up to the import ceiling's cost) is checked off this actor, with the hash
    // made again at the configured cost while the password is known, so it cannot hold up the
    // project.
    let check = { @Sendable () throws -> (Bool, PasswordHash?) in
      guard try hash.matches(password) else { return (false, nil) }
      return (true, hash.isWeaker(than: scrypt) ? try PasswordHash.make(password, parameters: scrypt) : nil)
    }
    let (matches, upgraded) =
      hash.algorithm == .scrypt && ScryptParameters(n: hash.n, r: hash.r, p: hash.p) == scrypt
      ? try check() : try await Self.offActor(check)
    guard matches else {
      try throttle.noteLoginFailure(email)
      throw loginFailure(.invalidPassword, "The password is wrong.")
    }
    return try await steps.finishFirstFactor(.password) {
      // The account may have changed while the check ran: only its current password is upgraded.
      if let upgraded {
        try store.updateAccount(uid: account.uid) { if $0.password == hash { $0.password = upgraded } }
      }
      return FirstFactor(uid: account.uid, email: email)
    }.signed()
  }

  /// Runs a password hash's work (scrypt, bcrypt, PBKDF2 at an imported cost) on the global
  /// executor instead of the backend's actor, so other calls go on meanwhile.
  static func offActor<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await Task.detached(priority: .userInitiated) { try work() }.value
  }

  /// The account of the user of `request.idToken`, as its user sees it.
  package func lookup(_ request: LookupRequest) throws -> AccountInfo {
    try account(of: request.idToken).info
  }

  /// The stored account of the user of `idToken`, whose dates a lookup lists too.
  package func account(of idToken: String) throws -> EmbeddedDatabase.Account {
    let (uid, _) = try tokens.verifiedUser(of: idToken)
    return try store.existingAccount(uid: uid)
  }

  package nonisolated(nonsending) func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    if let code = request.oobCode, request.idToken == nil {
      return try store.transaction {
        let entry = try mail.takeCode(code, kinds: [.verifyEmail, .verifyAndChangeEmail])
        if let newEmail = entry.newEmail, try store.emailIsTaken(newEmail, byOtherThan: entry.uid) {
          throw AccountRules.emailExists
        }
        let account = try store.updateAccount(uid: entry.uid) { account in
          if let newEmail = entry.newEmail { account.email = newEmail }
          account.emailVerified = true
        }
        return UpdateAccountResponse(account: account.info)
      }
    }
    let changesCredentials = request.email != nil || request.password != nil
    let (uid, provider) =
      changesCredentials
      ? try tokens.verifiedRecentUser(of: request.idToken ?? "") : try tokens.verifiedUser(of: request.idToken ?? "")
    var newEmail: String?
    var newHash: PasswordHash?
    if let email = request.email {
      newEmail = try AccountRules.validated(email, "unchecked").0
    }
    if let password = request.password {
      newHash = try PasswordHash.make(
        try AccountRules.validated("valid@example.com", password).1, parameters: configuration.scrypt)
    }
    try FieldLimits.checkProfile(displayName: request.displayName, photoURL: request.photoURL)
    return try store.transaction {
      var account = try store.existingAccount(uid: uid)
      if let newEmail {
        guard try !store.emailIsTaken(newEmail, byOtherThan: uid) else { throw AccountRules.emailExists }
        account.email = newEmail
        account.emailVerified = false
      }
      if let newHash { account.setPassword(newHash, at: now()) }
      if let name = request.displayName { account.displayName = name }
      if let photo = request.photoURL { account.photoURL = photo }
      if request.deleteAttributes.contains(.displayName) { account.displayName = nil }
      if request.deleteAttributes.contains(.photoURL) { account.photoURL = nil }
      account.federated.removeAll { request.deleteProviders.contains($0.providerID) }
      if request.deleteProviders.contains(.password) { account.removePasswordProvider(at: now()) }
      if request.deleteProviders.contains(.phone) { account.phoneNumber = nil }
      for credentialID in request.deletePasskeys {
        guard account.passkeys?.contains(where: { $0.credentialID == credentialID }) == true else {
          throw AuthError(
            firebase: .passkeyEnrollmentNotFound, message: "No passkey with that credential id is on this account.")
        }
        account.passkeys?.removeAll { $0.credentialID == credentialID }
      }
      if account.passkeys?.isEmpty == true { account.passkeys = nil }
      try store.save(account)
      guard newEmail != nil || newHash != nil else {
        return UpdateAccountResponse(account: account.info)
      }
      // New credentials revoke every earlier session.
      try administration.revokeSessions(of: uid, at: now())
      let tokens = try self.tokens.issueTokens(for: uid, provider: provider)
      return UpdateAccountResponse(account: try store.existingAccount(uid: uid).info, tokens: tokens)
    }
  }

  package nonisolated(nonsending) func delete(_ request: DeleteAccountRequest) async throws {
    let (uid, _) = try tokens.verifiedRecentUser(of: request.idToken)
    try administration.deleteAccount(uid: uid)
  }

  /// Under enumeration protection an unknown email and a wrong password look the same.
  func loginFailure(_ code: FirebaseErrorCode, _ message: String) -> AuthError {
    guard emailEnumerationProtection else { return AuthError(firebase: code, message: message) }
    return AuthError(firebase: .invalidLoginCredentials, message: "The email or the password is wrong.")
  }

  /// How the account with `email` signs in, as `accounts:createAuthUri` reports it (FirebaseAuth's
  /// `fetchSignInMethods(forEmail:)`): its providers (`password` for a password or an emailed
  /// link, then each IdP in the order linked) and its methods (`password` when it has a
  /// password, `emailLink` when it signed in with a link, then each IdP). `nil` when no account
  /// has the email.
  package func signInMethods(forEmail email: String) throws -> (
    providers: [WireProviderID], methods: [SignInMethod]
  )? {
    guard let account = try store.account(email: email.lowercased()) else { return nil }
    var providers: [WireProviderID] = []
    var methods: [SignInMethod] = []
    if account.password != nil || account.emailLinkSignIn == true {
      providers.append(.password)
      if account.password != nil { methods.append(.password) }
      if account.emailLinkSignIn == true { methods.append(.emailLink) }
    }
    for link in account.federated {
      let provider = WireProviderID(rawValue: link.providerID.rawValue)
      providers.append(provider)
      methods.append(.identityProvider(provider))
    }
    return (providers, methods)
  }
}
