import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// One-use codes sent by email (password reset, email verification and change, sign-in
/// links): made, recorded by digest, delivered as ``EmbeddedBackend/Configuration/delivery``
/// says, checked and spent once.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.mail`);
///   its async calls run on their caller's actor.
package struct ActionCodeMail {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer
  let steps: SignInSteps
  let throttle: LoginThrottle
  let administration: AccountAdministration
  /// ``EmbeddedBackend/emailEnumerationProtection`` when this was made.
  let emailEnumerationProtection: Bool

  /// Refuses settings whose links would lead away from the project's authorized domains.
  func checkLinkDestinations(_ settings: ActionCodeSettings?) throws {
    // Each is kept with the code and goes in the mail: a bounded length, checked first.
    try FieldLimits.check(settings?.continueURL?.absoluteString, .continueURL)
    for (value, name) in [
      (settings?.iOSBundleID, "iOSBundleId"), (settings?.androidPackageName, "androidPackageName"),
      (settings?.linkDomain, "linkDomain"),
    ] {
      try FieldLimits.check(value, .configValue, named: name)
    }
    if let continueURL = settings?.continueURL {
      guard ["http", "https"].contains(continueURL.scheme?.lowercased() ?? ""), let host = continueURL.host,
        !host.isEmpty
      else {
        throw AuthError(
          firebase: .invalidContinueUri,
          message: "The continue URL must be an http or https URL with a host, not \(continueURL.absoluteString).")
      }
      guard isAuthorizedDomain(host) else {
        throw AuthError(
          firebase: .unauthorizedDomain, "Domain not allowlisted by project",
          message: "The continue URL's domain \(host) is not authorized; add it (signin serve --authorized-domain).")
      }
    }
    if let linkDomain = settings?.linkDomain, !isAuthorizedDomain(linkDomain) {
      throw AuthError(
        firebase: .invalidHostingLinkDomain,
        message: "The link domain \(linkDomain) is not one of this project's authorized domains.")
    }
  }

  /// Whether links may lead to `host`.
  func isAuthorizedDomain(_ host: String) -> Bool {
    configuration.linkDomains.contains(host.lowercased())
  }

  /// Sends `request`'s code for `account`: to its email, or to `newEmail` for a change of email.
  nonisolated(nonsending) func send(
    _ request: OobCodeRequest, to account: EmbeddedDatabase.Account, newEmail: String? = nil,
    settings: ActionCodeSettings?
  ) async throws -> OobCodeResponse {
    guard let email = account.email else {
      throw AuthError(firebase: .missingEmail, message: "The account has no email address.")
    }
    _ = try await sendActionCode(
      kind: request.kind, to: account.uid, at: email, newEmail: newEmail, settings: settings)
    return OobCodeResponse(email: newEmail ?? email)
  }

  /// Makes a one-use code of `kind` for the account `uid`, records its digest, sends the
  /// message that carries it (to `newEmail` when the code changes the email, else to `email`)
  /// as ``Configuration-swift.struct/delivery`` says, and returns the code.
  ///
  /// The tables stay bounded (``Configuration-swift.struct/limits``), in the same transaction:
  /// expired codes go, an address keeps its newest codes of a kind, and the mailbox its newest
  /// messages per address, each only while its code can still be used.
  ///
  /// - Parameter delivered: `false` for a link the administrator asked for, to deliver
  ///   themselves: the outbox keeps it all the same, a handler is not given it.
  /// - Throws: `TOO_MANY_ATTEMPTS_TRY_LATER` when the limit of live codes is reached.
  nonisolated(nonsending) func sendActionCode(
    kind: OobRequestType, to uid: String, at email: String, newEmail: String? = nil,
    settings: ActionCodeSettings? = nil, delivered: Bool = true
  ) async throws -> String {
    let code = Base64URL.encode(try Crypto.randomBytes(24))
    let link = actionLink(kind: kind, code: code, settings: settings)
    let mail = MailboxMessage(to: newEmail ?? email, kind: kind.rawValue, code: code, sentAt: now(), link: link)
    let digest = StoredSecret.digest(code)
    try store.transaction {
      let limits = configuration.limits
      try prune()
      guard try store.actionCodes.count() < limits.actionCodes else {
        throw AuthError(
          firebase: .tooManyAttemptsTryLater,
          message: "\(limits.actionCodes) codes are waiting to be used; try again once some have expired.")
      }
      // Oldest first: by expiry, then by when they were sent.
      let same = try store.actionCodes.digests(email: email, kind: kind.rawValue)
      for digest in same.prefix(max(0, same.count - limits.codesPerAddress + 1)) {
        try store.actionCodes.delete(digest: digest)
      }
      try store.actionCodes.insert(
        .init(
          uid: uid, kind: kind.rawValue, email: email,
          expiresAt: now().addingTimeInterval(configuration.actionCodeLifetime.seconds), newEmail: newEmail),
        digest: digest, mail: keepsOutbox ? mail : nil)
      try prune()
    }
    if delivered {
      try await deliver(.email(mail)) { try store.actionCodes.delete(digest: digest) }
    }
    return code
  }

  /// Whether messages are kept in the data folder's outbox (``MessageDelivery/outbox``).
  var keepsOutbox: Bool {
    if case .outbox = configuration.delivery { return true }
    return false
  }

  /// Hands `message` to the configured handler, if there is one (else tells
  /// ``EmbeddedBackend/Configuration-swift.struct/announce`` of it); when the handler fails,
  /// `withdraw` deletes the code it carried, so no code lives that nobody received.
  ///
  /// - Throws: `AuthError.Code.internal`, naming the handler's error.
  nonisolated(nonsending) func deliver(_ message: OutgoingMessage, withdraw: () throws -> Void) async throws {
    guard case .handler(let deliver) = configuration.delivery else {
      configuration.announce?(message)
      return
    }
    do {
      try await deliver(message)
    } catch {
      try? withdraw()
      let what = if case .email = message { "email" } else { "text message" }
      throw AuthError(
        firebase: .internalError,
        "The \(what) could not be delivered (\(error)); no code was sent. Check the delivery handler, then try again.")
    }
  }

  /// Drops expired codes (a message goes with its code: the mailbox never keeps the text of a
  /// dead one), then keeps the mailbox within its limits, newest kept.
  func prune() throws {
    let limits = configuration.limits
    try store.actionCodes.purge(now: now(), mailPerAddress: limits.mailPerAddress, mailTotal: limits.mail)
  }

  /// The link an email of `kind` carries, shaped like Firebase's hosted action handler's: on
  /// the settings' `linkDomain`, or on `localhost`, so that a link opened by mistake stays on
  /// this machine instead of reaching `PROJECT.firebaseapp.com`, which a real project may own.
  func actionLink(kind: OobRequestType, code: String, settings: ActionCodeSettings?) -> String? {
    let mode = kind.actionMode
    typealias Field = EmulatorActionQuery.CodingKeys
    var link = URLComponents()
    link.scheme = settings?.linkDomain == nil ? "http" : "https"
    link.host = settings?.linkDomain ?? "localhost"
    link.path = "/__/auth/action"
    link.queryItems = [
      URLQueryItem(name: Field.apiKey.stringValue, value: "embedded"),
      URLQueryItem(name: Field.mode.stringValue, value: mode),
      URLQueryItem(name: Field.oobCode.stringValue, value: code),
    ]
    if let continueURL = settings?.continueURL {
      link.queryItems?.append(URLQueryItem(name: Field.continueUrl.stringValue, value: continueURL.absoluteString))
    }
    link.queryItems?.append(URLQueryItem(name: Field.lang.stringValue, value: "en"))
    return link.url?.absoluteString
  }

  /// The entry of an unexpired `code` of one of `kinds` (of any kind for `nil`).
  func peekCode(_ code: String, kinds: Set<OobRequestType>?) throws -> EmbeddedDatabase.ActionCode {
    guard let entry = try store.actionCodes.code(digest: StoredSecret.digest(code)),
      kinds.map({ OobRequestType(rawValue: entry.kind).map($0.contains) ?? false }) ?? true
    else {
      throw AuthError(firebase: .invalidOobCode)
    }
    guard entry.expiresAt > now() else {
      throw AuthError(firebase: .expiredOobCode)
    }
    return entry
  }

  /// Checks and consumes a code: it works once, also when several processes share the folder
  /// (the one whose delete finds it gone is refused).
  func takeCode(_ code: String, kinds: Set<OobRequestType>) throws -> EmbeddedDatabase.ActionCode {
    let entry = try peekCode(code, kinds: kinds)
    guard try store.actionCodes.delete(digest: StoredSecret.digest(code)) else {
      throw AuthError(firebase: .invalidOobCode)
    }
    return entry
  }

  /// `accounts:sendOobCode`. The settings' `continueUrl` must be an `http(s)` URL on an
  /// authorized domain (``Configuration-swift.struct/authorizedDomains``) and `linkDomain` one of
  /// them, or the call is refused (`INVALID_CONTINUE_URI`, `UNAUTHORIZED_DOMAIN`,
  /// `INVALID_HOSTING_LINK_DOMAIN`) before anything is sent, so nobody can have a live code
  /// mailed inside a link to a domain of theirs.
  package nonisolated(nonsending) func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?)
    async throws -> OobCodeResponse
  {
    try checkLinkDestinations(settings)
    switch request {
    case .passwordReset(let email):
      guard let account = try store.account(email: email.lowercased()) else {
        if emailEnumerationProtection { return OobCodeResponse(email: email) }
        throw AuthError(firebase: .emailNotFound, message: "There is no account for that email.")
      }
      return try await send(request, to: account, settings: settings)
    case .verifyEmail(let token):
      return try await send(
        request, to: try store.existingAccount(uid: try tokens.verifiedUser(of: token).uid), settings: settings)
    case .verifyAndChangeEmail(let token, let newEmail):
      let account = try store.existingAccount(uid: try tokens.verifiedUser(of: token).uid)
      let email = try AccountRules.validated(newEmail, "unchecked").0
      guard try !store.emailIsTaken(email, byOtherThan: account.uid) else { throw AccountRules.emailExists }
      return try await send(request, to: account, newEmail: email, settings: settings)
    case .emailSignIn(let email):
      let email = try AccountRules.validated(email, "unchecked").0
      guard settings?.continueURL != nil else {
        throw AuthError(
          firebase: .missingContinueUri, message: "A sign-in link needs a continue URL in its ActionCodeSettings.")
      }
      let account = try store.account(email: email)
      if let account, account.disabled {
        throw AuthError(firebase: .userDisabled)
      }
      _ = try await sendActionCode(kind: request.kind, to: account?.uid ?? "", at: email, settings: settings)
      return OobCodeResponse(email: email)
    }
  }

  package nonisolated(nonsending) func resetPassword(_ request: ResetPasswordRequest) async throws
    -> ResetPasswordResponse
  {
    guard let newPassword = request.newPassword else {
      let entry = try peekCode(request.oobCode, kinds: nil)
      return ResetPasswordResponse(email: entry.email, requestType: entry.kind, newEmail: entry.newEmail)
    }
    let hash = try PasswordHash.make(
      try AccountRules.validated("valid@example.com", newPassword).1, parameters: configuration.scrypt)
    let response = try store.transaction {
      let entry = try takeCode(request.oobCode, kinds: [.passwordReset])
      try store.updateAccount(uid: entry.uid) { account in
        account.setPassword(hash, at: now())
        account.emailVerified = true
      }
      try administration.revokeSessions(of: entry.uid, at: now())
      return ResetPasswordResponse(email: entry.email, requestType: entry.kind)
    }
    // A new password ends the throttle that wrong guesses at the old one started.
    if let email = response.email { throttle.forgetLoginFailures(email.lowercased()) }
    return response
  }

  /// Signs in with an emailed sign-in link's code, as Firebase does: the code works once and
  /// only with the address it was sent to; the account is found by that email or created, its
  /// email becomes verified, and with `request.idToken` the email joins that user instead (an
  /// anonymous user keeps their uid).
  ///
  /// An account with a second factor answers `AuthError/Code/secondFactorRequired` instead.
  ///
  /// The link proves the address. When the account it lands in never had that address verified,
  /// the password on it was set by whoever signed up with the address, perhaps not its owner
  /// (pre-hijacking): the password is removed and the account's other sessions are revoked, as
  /// Firebase does for a verified identity-provider sign-in.
  ///
  /// - Throws: `INVALID_OOB_CODE`/`EXPIRED_OOB_CODE`, `INVALID_EMAIL` (another address),
  ///   `EMAIL_EXISTS` (linking an email another account has), `USER_DISABLED`.
  package nonisolated(nonsending) func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws
    -> SignInResponse
  {
    let email = try AccountRules.validated(request.email, "unchecked").0
    let linking = try request.idToken.map { try tokens.verifiedUser(of: $0).uid }
    return try await steps.finishFirstFactor(.password) {
      let entry = try takeCode(request.oobCode, kinds: [.emailSignIn])
      guard entry.email == email else {
        throw AuthError(
          firebase: .invalidEmail, "the email does not match the sign-in link's",
          message: "This sign-in link was sent to another address; sign in with that one.")
      }
      let existing = try store.account(email: email)
      let uid: String
      var isNewUser = false
      if let linking {
        guard existing == nil || existing?.uid == linking else { throw AccountRules.emailExists }
        uid = linking
      } else if let existing {
        guard !existing.disabled else {
          throw AuthError(firebase: .userDisabled)
        }
        uid = existing.uid
        if !existing.emailVerified, existing.password != nil {
          // Whoever set the password before the address was proved may also have linked an
          // identity, a number or a passkey of theirs: none of it stays with the owner's account.
          try store.updateAccount(uid: uid) { account in
            account.setPassword(nil, at: now())
            account.federated = []
            account.phoneNumber = nil
            account.passkeys = nil
          }
          try administration.revokeSessions(of: uid, at: now())
        }
      } else {
        uid = try EmbeddedDatabase.Account.newUID()
        isNewUser = true
        try store.save(EmbeddedDatabase.Account(uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now()))
      }
      try store.updateAccount(uid: uid) { account in
        account.email = email
        account.emailVerified = true
        account.emailLinkSignIn = true
      }
      // An account with a second factor waits for it; the link is spent either way.
      return FirstFactor(uid: uid, email: email, isNewUser: isNewUser, isLink: linking != nil)
    }.signed()
  }
}
