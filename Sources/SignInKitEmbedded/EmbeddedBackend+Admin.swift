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
    let email = try AccountRules.validated(email, "unchecked").0
    let settings = continueURL.map { ActionCodeSettings(continueURL: $0) }
    let account = try store.account(email: email)
    if kind == .emailSignIn {
      guard continueURL != nil else {
        throw AuthError(firebase: .missingContinueUri, message: "A sign-in link needs a continue URL (continueUrl).")
      }
      if account?.disabled == true {
        throw AuthError(firebase: .userDisabled)
      }
      return try await mail.sendActionCode(
        kind: kind, to: account?.uid ?? "", at: email, settings: settings, delivered: false)
    }
    guard let account else {
      throw AuthError(firebase: .emailNotFound, message: "There is no account for \(email).")
    }
    guard kind == .verifyAndChangeEmail else {
      return try await mail.sendActionCode(kind: kind, to: account.uid, at: email, settings: settings, delivered: false)
    }
    guard let newEmail else {
      throw AuthError(firebase: .missingNewEmail, message: "A change of email needs the new address (newEmail).")
    }
    let target = try AccountRules.validated(newEmail, "unchecked").0
    guard try !store.emailIsTaken(target, byOtherThan: account.uid) else { throw AccountRules.emailExists }
    return try await mail.sendActionCode(
      kind: kind, to: account.uid, at: email, newEmail: target, settings: settings, delivered: false)
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
    try administration.deleteAccount(uid: uid)
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
    try administration.revokeSessions(of: uid, at: now())
  }

  /// The uid of the account with `email`, if any.
  public func uid(forEmail email: String) -> String? {
    (try? store.account(email: email.lowercased()))?.uid
  }

}
