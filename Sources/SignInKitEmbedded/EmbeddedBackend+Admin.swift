import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// What an administrator sets on an account, as the Admin SDKs' `create_user` and
/// `update_user` send it. `nil` leaves a field as it is.
///
/// - Concurrency: `Sendable` value.
struct AdminAccountChanges: Sendable {
  var email: String?
  var password: String?
  var displayName: String?
  var photoURL: URL?
  var emailVerified: Bool?
  var disabled: Bool?
  /// The `customAttributes` JSON object; `{}` removes every custom claim.
  var customAttributes: String?
  /// ID and refresh tokens issued before this instant stop working.
  var validSince: Date?
  var deleteAttributes: [UpdateAccountRequest.Attribute] = []
  var deleteProviders: [ProviderID] = []
}

extension EmbeddedBackend {
  // MARK: - Admin API (the server's `Authorization: Bearer owner` calls)

  /// Creates an account with `uid` (or a new one) and `changes`.
  ///
  /// - Throws: `DUPLICATE_LOCAL_ID`, `DUPLICATE_EMAIL`, `INVALID_EMAIL`, `WEAK_PASSWORD`,
  ///   `INVALID_LOCAL_ID`, `FORBIDDEN_CLAIM`/`CLAIMS_TOO_LARGE`.
  func adminCreate(uid requested: String?, _ changes: AdminAccountChanges) throws -> EmbeddedDatabase.Account {
    let uid = try requested.map(Self.validatedUID) ?? Self.newUID()
    guard database.accounts[uid] == nil else {
      throw Self.failure(.invalidResponse, "DUPLICATE_LOCAL_ID", "An account already has uid \(uid).")
    }
    var account = EmbeddedDatabase.Account(uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now())
    try apply(changes, to: &account)
    return try commit { database in
      if let email = account.email, database.accounts.values.contains(where: { $0.email == email }) {
        throw Self.failure(.emailAlreadyInUse, "DUPLICATE_EMAIL", "An account already uses \(email).")
      }
      database.accounts[uid] = account
      return account
    }
  }

  /// The accounts with these uids and emails, each once, in uid order.
  func adminLookup(uids: [String], emails: [String]) -> [EmbeddedDatabase.Account] {
    let emails = Set(emails.map { $0.lowercased() })
    return database.accounts.values
      .filter { uids.contains($0.uid) || $0.email.map(emails.contains) == true }
      .sorted { $0.uid < $1.uid }
  }

  /// Applies `changes` to the account `uid`. A new password or a `validSince` ends the sessions
  /// that came before it.
  func adminUpdate(uid: String, _ changes: AdminAccountChanges) throws -> EmbeddedDatabase.Account {
    guard var account = database.accounts[uid] else {
      throw Self.failure(.userNotFound, "USER_NOT_FOUND", "No account has uid \(uid).")
    }
    try apply(changes, to: &account)
    return try commit { database in
      if let email = account.email,
        database.accounts.values.contains(where: { $0.email == email && $0.uid != uid })
      {
        throw Self.emailExists
      }
      database.accounts[uid] = account
      if changes.password != nil { Self.revokeSessions(of: uid, at: now(), in: &database) }
      if changes.validSince != nil {
        database.refreshTokens = database.refreshTokens.filter {
          $0.value.uid != uid || !account.revokes(issuedAt: $0.value.issuedAt)
        }
      }
      return database.accounts[uid]!
    }
  }

  /// One page of accounts in uid order, and the token of the next page when there is one.
  func adminList(maxResults: Int, after pageToken: String?) -> (accounts: [EmbeddedDatabase.Account], next: String?) {
    let after = pageToken.flatMap { Base64URL.decode($0) }.map { String(decoding: $0, as: UTF8.self) }
    let sorted = database.accounts.values.sorted { $0.uid < $1.uid }.filter { after == nil || $0.uid > after! }
    let page = Array(sorted.prefix(max(1, min(maxResults, 1000))))
    let next = sorted.count > page.count ? page.last.map { Base64URL.encode(Array($0.uid.utf8)) } : nil
    return (page, next)
  }

  /// An out-of-band code for `email`, as `sendOobCode` with `returnOobLink` makes it: recorded
  /// like a sent one (it shows in the mailbox), and returned for the administrator to deliver.
  ///
  /// - Parameter kind: `PASSWORD_RESET`, `VERIFY_EMAIL` or `EMAIL_SIGNIN`.
  func adminActionCode(kind: String, email: String) throws -> String {
    let email = email.lowercased()
    guard let account = database.accounts.values.first(where: { $0.email == email }) else {
      throw Self.failure(.userNotFound, "EMAIL_NOT_FOUND", "There is no account for \(email).")
    }
    return try sendActionCode(kind: kind, to: account.uid, at: email)
  }

  /// Disables or enables an account; a disabled account cannot sign in or refresh
  /// (`USER_DISABLED`).
  public func setDisabled(_ disabled: Bool, uid: String) throws {
    guard database.accounts[uid] != nil else {
      throw Self.failure(.userNotFound, "USER_NOT_FOUND", "No account has uid \(uid).")
    }
    try commit { $0.accounts[uid]!.disabled = disabled }
  }

  /// Deletes `uid` as an administrator would, from outside the user's session.
  public func deleteUser(uid: String) throws {
    guard database.accounts[uid] != nil else {
      throw Self.failure(.userNotFound, "USER_NOT_FOUND", "No account has uid \(uid).")
    }
    try commit { database in
      database.accounts[uid] = nil
      database.refreshTokens = database.refreshTokens.filter { $0.value.uid != uid }
      database.actionCodes = database.actionCodes.filter { $0.value.uid != uid }
      Self.dropMailWithoutLiveCodes(in: &database)
    }
  }

  /// Revokes every refresh token and ID token of `uid`.
  public func revokeAllSessions(uid: String) throws {
    try commit { Self.revokeSessions(of: uid, at: now(), in: &$0) }
  }

  /// The uid of the account with `email`, if any.
  public func uid(forEmail email: String) -> String? {
    database.accounts.values.first { $0.email == email.lowercased() }?.uid
  }

  // MARK: - Rules

  private func apply(
    _ changes: AdminAccountChanges, to account: inout EmbeddedDatabase.Account
  ) throws {
    if let email = changes.email {
      guard Self.isEmail(email) else {
        throw Self.failure(.invalidEmail, "INVALID_EMAIL", "The email address is badly formatted.")
      }
      account.email = email.lowercased()
    }
    if let password = changes.password {
      account.password = try PasswordHash.make(
        try validated("valid@example.com", password).1, parameters: configuration.scrypt)
    }
    if let name = changes.displayName { account.displayName = name }
    if let photo = changes.photoURL { account.photoURL = photo }
    if let verified = changes.emailVerified { account.emailVerified = verified }
    if let disabled = changes.disabled { account.disabled = disabled }
    if let attributes = changes.customAttributes {
      let claims = try Self.customClaims(attributes)
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
  }

  /// Claims custom claims may not use: Firebase's reserved names, and every claim this server
  /// puts in an ID token itself (`user_id`, `email`, `email_verified`, `name`, `picture`,
  /// `provider_id`, `phone_number`), so a token's `user_id` can never differ from its `sub`.
  static let reservedClaims: Set<String> = [
    "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat",
    "iss", "jti", "nbf", "nonce", "sub", "user_id", "email", "email_verified", "name", "picture",
    "provider_id", "phone_number",
  ]

  /// The claims of a `customAttributes` string: a JSON object of at most 1,000 bytes that uses
  /// no reserved name.
  static func customClaims(_ text: String) throws -> [String: JSONValue] {
    guard text.utf8.count <= 1000 else {
      throw failure(.invalidResponse, "CLAIMS_TOO_LARGE", "Custom claims must be at most 1,000 bytes of JSON.")
    }
    guard let claims = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.object else {
      throw failure(
        .invalidResponse, "INVALID_CLAIMS", "Custom claims must be a JSON object, such as {\"admin\":true}.")
    }
    try checkReserved(claims, failingWith: .invalidResponse)
    return claims
  }

  /// Refuses a reserved claim name with `FORBIDDEN_CLAIM` and `code` (the admin API's 400, or a
  /// custom token's `AuthError/Code/invalidCustomToken`).
  static func checkReserved(_ claims: [String: JSONValue], failingWith code: AuthError.Code) throws {
    if let name = claims.keys.sorted().first(where: reservedClaims.contains) {
      throw failure(
        code, "FORBIDDEN_CLAIM : \(name)", "The claim \(name) is reserved; choose another name.")
    }
  }

  static func validatedUID(_ uid: String) throws -> String {
    guard (1...128).contains(uid.count) else {
      throw failure(.invalidResponse, "INVALID_LOCAL_ID", "A uid has 1 to 128 characters.")
    }
    return uid
  }
}
