import Foundation
import SignInCrypto
import SignInKit
import SignInWire

extension EmbeddedBackend {
  /// `accounts:sendOobCode`. The settings' `continueUrl` must be an `http(s)` URL on an
  /// authorized domain (``Configuration-swift.struct/authorizedDomains``) and `linkDomain` one of
  /// them, or the call is refused (`INVALID_CONTINUE_URI`, `UNAUTHORIZED_DOMAIN`,
  /// `INVALID_HOSTING_LINK_DOMAIN`) before anything is sent, so nobody can have a live code
  /// mailed inside a link to a domain of theirs.
  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    try mail.checkLinkDestinations(settings)
    switch request {
    case .passwordReset(let email):
      guard let account = try store.account(email: email.lowercased()) else {
        if emailEnumerationProtection { return OobCodeResponse(email: email) }
        throw AuthError(firebase: .emailNotFound, message: "There is no account for that email.")
      }
      return try await mail.send(request, to: account, settings: settings)
    case .verifyEmail(let token):
      return try await mail.send(
        request, to: try store.existingAccount(uid: try tokens.verifiedUser(of: token).uid), settings: settings)
    case .verifyAndChangeEmail(let token, let newEmail):
      let account = try store.existingAccount(uid: try tokens.verifiedUser(of: token).uid)
      let email = try AccountRules.validated(newEmail, "unchecked").0
      guard try !store.emailIsTaken(email, byOtherThan: account.uid) else { throw AccountRules.emailExists }
      return try await mail.send(request, to: account, newEmail: email, settings: settings)
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
      _ = try await mail.sendActionCode(kind: request.kind, to: account?.uid ?? "", at: email, settings: settings)
      return OobCodeResponse(email: email)
    }
  }

  /// The domains links may lead to: the ones every project has (`localhost`, the loopback
  /// addresses, `PROJECT.firebaseapp.com` and `PROJECT.web.app`), then the configured ones.
  public nonisolated var authorizedDomains: [String] {
    configuration.linkDomains
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    guard let newPassword = request.newPassword else {
      let entry = try mail.peekCode(request.oobCode, kinds: nil)
      return ResetPasswordResponse(email: entry.email, requestType: entry.kind, newEmail: entry.newEmail)
    }
    let hash = try PasswordHash.make(
      try AccountRules.validated("valid@example.com", newPassword).1, parameters: configuration.scrypt)
    let response = try store.transaction {
      let entry = try mail.takeCode(request.oobCode, kinds: [.passwordReset])
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

  /// The messages sent to `email` whose codes can still be used, oldest first (the newest few:
  /// ``Configuration-swift.struct/limits``); every such message when `email` is `nil`.
  public func mailbox(for email: String? = nil) -> [MailboxMessage] {
    // Expired codes take their messages with them; a database that cannot be read shows none
    // (the next call that needs it says why).
    (try? store.actionCodes.mail(to: email?.lowercased(), liveAt: now())) ?? []
  }

}
