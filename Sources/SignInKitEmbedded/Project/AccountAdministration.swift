import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// An administrator's calls on accounts (the Admin SDKs' and the emulator's): create, look up,
/// update, list and session cookies, and the end of an account's sessions.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor
///   (`EmbeddedBackend.administration`).
package struct AccountAdministration {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let tokens: TokenIssuer

  /// Creates an account with `uid` (or a new one) and `changes`.
  ///
  /// - Throws: `DUPLICATE_LOCAL_ID`, `DUPLICATE_EMAIL`, `INVALID_EMAIL`, `WEAK_PASSWORD`,
  ///   `INVALID_LOCAL_ID`, `FORBIDDEN_CLAIM`/`CLAIMS_TOO_LARGE`.
  package func adminCreate(uid requested: String?, _ changes: AdminAccountChanges) throws -> EmbeddedDatabase.Account {
    let uid = try requested.map(AccountRules.validatedUID) ?? EmbeddedDatabase.Account.newUID()
    guard try store.account(uid: uid) == nil else {
      throw AuthError(firebase: .duplicateLocalId, message: "An account already has uid \(uid).")
    }
    var account = EmbeddedDatabase.Account(uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now())
    try apply(changes, to: &account)
    return try store.transaction {
      guard try store.account(uid: uid) == nil else {
        throw AuthError(firebase: .duplicateLocalId, message: "An account already has uid \(uid).")
      }
      if let email = account.email, try store.emailIsTaken(email) {
        throw AuthError(firebase: .duplicateEmail, message: "An account already uses \(email).")
      }
      if let phone = account.phoneNumber, try store.phoneIsTaken(phone) { throw AccountRules.phoneExists(phone) }
      try store.save(account)
      return account
    }
  }

  /// The accounts with any of `uids`, `emails` or IdP identities (`federated`: provider and the
  /// user's id there), each once, in uid order.
  package func adminLookup(
    uids: [String], emails: [String], phones: [String] = [], federated: [(ProviderID, String)] = []
  ) throws -> [EmbeddedDatabase.Account] {
    try store.accounts(uids: uids, emails: emails.map { $0.lowercased() }, phones: phones, federated: federated)
  }

  /// Applies `changes` to the account `uid`. A new password or a `validSince` ends the sessions
  /// that came before it.
  package func adminUpdate(uid: String, _ changes: AdminAccountChanges) throws -> EmbeddedDatabase.Account {
    // Hashing a new password is slow: it happens before the transaction, on the account as it
    // was, and the transaction applies the changes again to the account as it is then.
    guard var account = try store.account(uid: uid) else {
      throw AuthError(firebase: .userNotFound, message: "No account has uid \(uid).")
    }
    try apply(changes, to: &account)
    let hashed = account.password
    return try store.transaction {
      guard var current = try store.account(uid: uid) else {
        throw AuthError(firebase: .userNotFound, message: "No account has uid \(uid).")
      }
      try apply(changes, to: &current, hashedPassword: hashed)
      if let email = current.email, try store.emailIsTaken(email, byOtherThan: uid) { throw AccountRules.emailExists }
      if let phone = current.phoneNumber, try store.phoneIsTaken(phone, byOtherThan: uid) {
        throw AccountRules.phoneExists(phone)
      }
      try store.save(current)
      if changes.password != nil { try revokeSessions(of: uid, at: now()) }
      if changes.validSince != nil {
        try store.deleteRefreshTokens(uid: uid) { !current.revokes(issuedAt: $0.issuedAt) }
      }
      return try store.existingAccount(uid: uid)
    }
  }

  /// The identities at `provider` that accounts here are linked to, by their id there (the
  /// emulator's hosted handler lists them as the fake accounts to sign in with again).
  package func identities(at provider: ProviderID, limit: Int = 100) throws -> [ProviderInfo] {
    try store.accounts(linkedTo: provider, limit: limit).compactMap { account in
      account.federated.first { $0.providerID == provider }
    }
  }

  /// One page of accounts in uid order, and the token of the next page when there is one.
  package func adminList(maxResults: Int, after pageToken: String?) throws -> (
    accounts: [EmbeddedDatabase.Account], next: String?
  ) {
    let after = pageToken.flatMap { Base64URL.decode($0) }.map { String(decoding: $0, as: UTF8.self) }
    let size = max(1, min(maxResults, 1000))
    // One more than a page, to know whether another follows.
    let found = try store.accounts(after: after, limit: size + 1)
    let page = Array(found.prefix(size))
    let next = found.count > page.count ? page.last.map { Base64URL.encode(Array($0.uid.utf8)) } : nil
    return (page, next)
  }

  /// A session cookie for a web server (`createSessionCookie`): the claims of a valid ID token,
  /// issued by `https://session.firebase.google.com/PROJECT`, valid for `validDuration`, RS256
  /// like the ID tokens.
  ///
  /// - Throws: `INVALID_DURATION` outside 5 minutes to 2 weeks (Firebase's bounds), and what an
  ///   invalid or revoked ID token gets.
  package func sessionCookie(idToken: String, validDuration: Duration) throws -> String {
    guard validDuration >= .seconds(5 * 60), validDuration <= .seconds(14 * 24 * 3600) else {
      throw AuthError(
        firebase: .invalidDuration,
        message: "A session cookie lasts from 5 minutes to 2 weeks (300 to 1209600 seconds).")
    }
    _ = try tokens.verifiedUser(of: idToken)
    var claims = try JSONWebToken(decoding: idToken).claims
    let issuedAt = now().timeIntervalSince1970.rounded(.down)
    claims["iss"] = .string("https://session.firebase.google.com/\(configuration.projectID)")
    claims["iat"] = .number(issuedAt)
    claims["exp"] = .number(issuedAt + validDuration.seconds)
    return try tokens.signed(claims)
  }

  /// Applies `changes` to `account`; a new password is hashed now, or `hashedPassword` is
  /// used when given.
  private func apply(
    _ changes: AdminAccountChanges, to account: inout EmbeddedDatabase.Account,
    hashedPassword: PasswordHash? = nil
  ) throws {
    if let email = changes.email {
      guard AccountRules.isEmail(email) else {
        throw AuthError(firebase: .invalidEmail)
      }
      account.email = email.lowercased()
    }
    if let hashedPassword, changes.password != nil {
      account.setPassword(hashedPassword, at: now())
    } else if let password = changes.password {
      account.setPassword(
        try PasswordHash.make(
          try AccountRules.validated("valid@example.com", password).1, parameters: configuration.scrypt),
        at: now())
    }
    if let phone = changes.phoneNumber { account.phoneNumber = try AccountRules.validatedPhoneNumber(phone) }
    try FieldLimits.checkProfile(displayName: changes.displayName, photoURL: changes.photoURL)
    if let name = changes.displayName { account.displayName = name }
    if let photo = changes.photoURL { account.photoURL = photo }
    if let verified = changes.emailVerified { account.emailVerified = verified }
    if let disabled = changes.disabled { account.disabled = disabled }
    if let attributes = changes.customAttributes {
      let claims = try AccountRules.customClaims(attributes)
      account.customClaims = claims.isEmpty ? nil : claims
    }
    if let validSince = changes.validSince { account.validSince = validSince }
    for attribute in changes.deleteAttributes {
      switch attribute {
      case .displayName: account.displayName = nil
      case .photoURL: account.photoURL = nil
      }
    }
    account.federated.removeAll { changes.deleteProviders.contains($0.providerID) }
    if changes.deleteProviders.contains(.phone) { account.phoneNumber = nil }
    if changes.deleteProviders.contains(.password) { account.removePasswordProvider(at: now()) }
  }

  /// Ends every session of `uid` that started before `date`: its refresh tokens go, and ID
  /// tokens issued before then stop verifying.
  func revokeSessions(of uid: String, at date: Date) throws {
    try store.transaction {
      try store.deleteRefreshTokens(uid: uid)
      guard var account = try store.account(uid: uid) else { return }
      account.validSince = date
      try store.save(account)
    }
  }

  /// Deletes `uid` as an administrator would, from outside the user's session.
  func deleteAccount(uid: String) throws {
    guard try store.account(uid: uid) != nil else {
      throw AuthError(firebase: .userNotFound, message: "No account has uid \(uid).")
    }
    try store.deleteAccount(uid: uid)
  }
}
