import Foundation
import SignInKit
import SignInWire

extension EmbeddedBackend {
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
  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    let email = try AccountRules.validated(request.email, "unchecked").0
    let linking = try request.idToken.map { try tokens.verifiedUser(of: $0).uid }
    return try await steps.finishFirstFactor(.password) {
      let entry = try mail.takeCode(request.oobCode, kinds: [.emailSignIn])
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
