import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// What an administrator sets on an account, as the Admin SDKs' `create_user` and
/// `update_user` send it. `nil` leaves a field as it is.
///
/// - Concurrency: `Sendable` value.
package struct AdminAccountChanges: Sendable {
  package var email: String?
  /// A phone number in E.164 form (`+` and up to 15 digits).
  package var phoneNumber: String?
  package var password: String?
  package var displayName: String?
  package var photoURL: URL?
  package var emailVerified: Bool?
  package var disabled: Bool?
  /// The `customAttributes` JSON object; `{}` removes every custom claim.
  package var customAttributes: String?
  /// ID and refresh tokens issued before this instant stop working.
  package var validSince: Date?
  package var deleteAttributes: [UpdateAccountRequest.Attribute] = []
  package var deleteProviders: [ProviderID] = []

  package init() {}

  /// The profile an administrator's create or update names, as the wire carries it (the photo
  /// as text).
  package init(
    email: String?, phoneNumber: String?, password: String?, displayName: String?, photoURL: String?,
    emailVerified: Bool?, disabled: Bool?
  ) {
    self.email = email
    self.phoneNumber = phoneNumber
    self.password = password
    self.displayName = displayName
    self.photoURL = photoURL.flatMap(URL.init(string:))
    self.emailVerified = emailVerified
    self.disabled = disabled
  }
}

extension EmbeddedBackend {
  // MARK: - Admin API (the server's `Authorization: Bearer owner` calls)

  /// Creates an account with `uid` (or a new one) and `changes`.
  ///
  /// - Throws: `DUPLICATE_LOCAL_ID`, `DUPLICATE_EMAIL`, `INVALID_EMAIL`, `WEAK_PASSWORD`,
  ///   `INVALID_LOCAL_ID`, `FORBIDDEN_CLAIM`/`CLAIMS_TOO_LARGE`.
  package func adminCreate(uid requested: String?, _ changes: AdminAccountChanges) throws -> EmbeddedDatabase.Account {
    let uid = try requested.map(Self.validatedUID) ?? EmbeddedDatabase.Account.newUID()
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
      if let phone = account.phoneNumber, try store.phoneIsTaken(phone) { throw Self.phoneExists(phone) }
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
      if let email = current.email, try store.emailIsTaken(email, byOtherThan: uid) { throw Self.emailExists }
      if let phone = current.phoneNumber, try store.phoneIsTaken(phone, byOtherThan: uid) {
        throw Self.phoneExists(phone)
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

  /// An out-of-band code for `email`, as `sendOobCode` with `returnOobLink` makes it: recorded
  /// like a sent one (it shows in the outbox, when there is one), and returned for the
  /// administrator to deliver: a delivery handler is not given it.
  ///
  /// - Parameters:
  ///   - kind: `PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN` (the address needs no account
  ///     yet) or `VERIFY_AND_CHANGE_EMAIL` (to `newEmail`).
  ///   - continueURL: where the link continues; a sign-in link needs one.
  package func adminActionCode(kind: OobRequestType, email: String, newEmail: String? = nil, continueURL: URL? = nil)
    async throws -> String
  {
    let email = try validated(email, "unchecked").0
    let settings = continueURL.map { ActionCodeSettings(continueURL: $0) }
    let account = try store.account(email: email)
    if kind == .emailSignIn {
      guard continueURL != nil else {
        throw AuthError(firebase: .missingContinueUri, message: "A sign-in link needs a continue URL (continueUrl).")
      }
      if account?.disabled == true {
        throw AuthError(firebase: .userDisabled)
      }
      return try await sendActionCode(
        kind: kind, to: account?.uid ?? "", at: email, settings: settings, delivered: false)
    }
    guard let account else {
      throw AuthError(firebase: .emailNotFound, message: "There is no account for \(email).")
    }
    guard kind == .verifyAndChangeEmail else {
      return try await sendActionCode(kind: kind, to: account.uid, at: email, settings: settings, delivered: false)
    }
    guard let newEmail else {
      throw AuthError(firebase: .missingNewEmail, message: "A change of email needs the new address (newEmail).")
    }
    let target = try validated(newEmail, "unchecked").0
    guard try !store.emailIsTaken(target, byOtherThan: account.uid) else { throw Self.emailExists }
    return try await sendActionCode(
      kind: kind, to: account.uid, at: email, newEmail: target, settings: settings, delivered: false)
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

  /// Disables or enables an account; a disabled account cannot sign in or refresh
  /// (`USER_DISABLED`).
  public func setDisabled(_ disabled: Bool, uid: String) throws {
    guard try store.account(uid: uid) != nil else {
      throw AuthError(firebase: .userNotFound, message: "No account has uid \(uid).")
    }
    try store.updateAccount(uid: uid) { $0.disabled = disabled }
  }

  /// Deletes `uid` as an administrator would, from outside the user's session.
  public func deleteUser(uid: String) throws {
    guard try store.account(uid: uid) != nil else {
      throw AuthError(firebase: .userNotFound, message: "No account has uid \(uid).")
    }
    try store.deleteAccount(uid: uid)
  }

  /// Deletes every account, as the Firebase emulator's reset between tests does
  /// (`DELETE /emulator/v1/projects/PROJECT/accounts`): their links, tokens, action codes and
  /// mail, and pending second factors. The signing key and the settings stay.
  public func deleteAllAccounts() throws {
    try store.deleteAllAccounts()
  }

  /// Turns email enumeration protection on or off from now on, as the Firebase console's
  /// setting (and the emulator's `PATCH …/config`) does; ``Configuration/emailEnumerationProtection``
  /// is where it starts. Not kept across restarts.
  public func setEmailEnumerationProtection(_ on: Bool) {
    emailEnumerationProtection = on
  }

  /// Revokes every refresh token and ID token of `uid`.
  public func revokeAllSessions(uid: String) throws {
    try revokeSessions(of: uid, at: now())
  }

  /// The uid of the account with `email`, if any.
  public func uid(forEmail email: String) -> String? {
    (try? store.account(email: email.lowercased()))?.uid
  }

  // MARK: - Rules

  /// Applies `changes` to `account`; a new password is hashed now, or `hashedPassword` is
  /// used when given.
  private func apply(
    _ changes: AdminAccountChanges, to account: inout EmbeddedDatabase.Account,
    hashedPassword: PasswordHash? = nil
  ) throws {
    if let email = changes.email {
      guard Self.isEmail(email) else {
        throw AuthError(firebase: .invalidEmail)
      }
      account.email = email.lowercased()
    }
    if let hashedPassword, changes.password != nil {
      account.setPassword(hashedPassword, at: now())
    } else if let password = changes.password {
      account.setPassword(
        try PasswordHash.make(try validated("valid@example.com", password).1, parameters: configuration.scrypt),
        at: now())
    }
    if let phone = changes.phoneNumber { account.phoneNumber = try Self.validatedPhoneNumber(phone) }
    try FieldLimits.checkProfile(displayName: changes.displayName, photoURL: changes.photoURL)
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
    if changes.deleteProviders.contains(.phone) { account.phoneNumber = nil }
    if changes.deleteProviders.contains(.password) { account.removePasswordProvider(at: now()) }
  }

  /// `PHONE_NUMBER_EXISTS`, as Firebase answers a number another account has.
  static func phoneExists(_ phone: String) -> AuthError {
    AuthError(firebase: .phoneNumberExists, message: "Another account already has the phone number \(phone).")
  }

  /// `phone` when it is an E.164 number: `+`, then 1 to 15 digits, the first not 0.
  ///
  /// - Throws: `INVALID_PHONE_NUMBER`, saying the form to use.
  static func validatedPhoneNumber(_ phone: String) throws -> String {
    let digits = phone.utf8.dropFirst()
    guard phone.utf8.first == UInt8(ascii: "+"), (1...15).contains(digits.count),
      digits.first != UInt8(ascii: "0"), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else {
      throw AuthError(
        firebase: .invalidPhoneNumber,
        message: "\(phone) is not a phone number in E.164 form: write + and the country code, then the number, "
          + "digits only (+15551234567).")
    }
    return phone
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
    try FieldLimits.checked(text, .claims, named: "customAttributes")
    guard let claims = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.object else {
      throw AuthError(
        firebase: .invalidClaims, message: "Custom claims must be a JSON object, such as {\"admin\":true}.")
    }
    try checkReserved(claims)
    return claims
  }

  /// Refuses a reserved claim name with `FORBIDDEN_CLAIM`.
  static func checkReserved(_ claims: [String: JSONValue]) throws {
    if let name = claims.keys.sorted().first(where: reservedClaims.contains) {
      throw AuthError(
        firebase: .forbiddenClaim, name, message: "The claim \(name) is reserved; choose another name.")
    }
  }

  static func validatedUID(_ uid: String) throws -> String {
    guard (1...128).contains(uid.count) else {
      throw AuthError(firebase: .invalidLocalId, message: "A uid has 1 to 128 characters.")
    }
    return uid
  }
}
