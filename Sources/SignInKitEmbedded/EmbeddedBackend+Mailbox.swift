import SignInCrypto
import Foundation
import SignInKit

extension EmbeddedBackend {
  public func sendOobCode(_ request: OobCodeRequest) async throws -> OobCodeResponse {
    let account: EmbeddedDatabase.Account
    switch request {
    case .passwordReset(let email):
      guard let found = database.accounts.values.first(where: { $0.email == email.lowercased() })
      else {
        if configuration.emailEnumerationProtection { return OobCodeResponse(email: email) }
        throw Self.failure(.userNotFound, "EMAIL_NOT_FOUND", "There is no account for that email.")
      }
      account = found
    case .verifyEmail(let token), .verifyAndChangeEmail(let token, _):
      account = database.accounts[try verifiedUser(of: token).uid]!
    }
    guard let email = account.email else {
      throw Self.failure(.invalidEmail, "MISSING_EMAIL", "The account has no email address.")
    }
    _ = try sendActionCode(kind: request.requestType, to: account.uid, at: email)
    return OobCodeResponse(email: email)
  }

  /// Makes a one-use code of `kind` for the account `uid`, records its digest and the message
  /// that carries it to `email`, and returns the code.
  func sendActionCode(kind: String, to uid: String, at email: String) throws -> String {
    let code = Base64URL.encode(try Crypto.randomBytes(24))
    try commit { database in
      database.actionCodes[Self.digest(code)] = .init(
        uid: uid, kind: kind, email: email,
        expiresAt: now().addingTimeInterval(configuration.actionCodeLifetime.seconds))
      database.mailbox.append(MailboxMessage(to: email, kind: kind, code: code, sentAt: now()))
    }
    return code
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    guard let newPassword = request.newPassword else {
      let entry = try Self.peekCode(request.oobCode, kind: "PASSWORD_RESET", now: now(), in: database)
      return ResetPasswordResponse(email: entry.email, requestType: entry.kind)
    }
    let hash = try PasswordHash.make(
      try validated("valid@example.com", newPassword).1, parameters: configuration.scrypt)
    let response = try commit { database in
      let entry = try Self.takeCode(request.oobCode, kind: "PASSWORD_RESET", now: now(), in: &database)
      guard database.accounts[entry.uid] != nil else {
        throw Self.failure(.userNotFound, "USER_NOT_FOUND", "The account no longer exists.")
      }
      database.accounts[entry.uid]!.password = hash
      database.accounts[entry.uid]!.emailVerified = true
      Self.revokeSessions(of: entry.uid, at: now(), in: &database)
      return ResetPasswordResponse(email: entry.email, requestType: entry.kind)
    }
    // A new password ends the throttle that wrong guesses at the old one started.
    if let email = response.email { loginFailures[email.lowercased()] = nil }
    return response
  }

  /// The messages sent to `email`, oldest first; every message when `email` is `nil`.
  public func mailbox(for email: String? = nil) -> [MailboxMessage] {
    guard let email = email?.lowercased() else { return database.mailbox }
    return database.mailbox.filter { $0.to == email }
  }

  static func peekCode(
    _ code: String, kind: String, now: Date, in database: EmbeddedDatabase
  ) throws -> EmbeddedDatabase.ActionCode {
    guard let entry = database.actionCodes[digest(code)], entry.kind == kind else {
      throw failure(
        .invalidActionCode, "INVALID_OOB_CODE",
        "The code is invalid or was already used. Ask for a new one.")
    }
    guard entry.expiresAt > now else {
      throw failure(.expiredActionCode, "EXPIRED_OOB_CODE", "The code has expired. Ask for a new one.")
    }
    return entry
  }

  /// Checks and consumes a code: it works once.
  static func takeCode(
    _ code: String, kind: String, now: Date, in database: inout EmbeddedDatabase
  ) throws -> EmbeddedDatabase.ActionCode {
    let entry = try peekCode(code, kind: kind, now: now, in: database)
    database.actionCodes[digest(code)] = nil
    return entry
  }
}
