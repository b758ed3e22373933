import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

extension EmbeddedBackend {
  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    // A hosted handler's answer carries the provider's response in the URL its page finished on.
    let credential = request.credential.resolvingResponseURL
    // An access token alone: ask the issuer whom it was issued to and who it belongs to. These
    // are the only suspensions, and they come before anything is read, so the call stays
    // linearizable.
    let claims: [String: JSONValue]
    if let pendingToken = credential.pendingToken, !pendingToken.isEmpty {
      // An identity verified before, by a sign-in that ended in a conflict: its IdP token is
      // not sent again.
      claims = try identities.pendingIdentity(pendingToken, of: credential.providerID)
    } else if let samlResponse = credential.samlResponse {
      claims = try await identities.samlClaims(samlResponse, of: credential)
    } else if let userinfo = try await identities.userinfoClaims(of: credential) {
      claims = userinfo
    } else {
      claims = try await identities.verifiedClaims(of: credential)
      try identities.spendAppleToken(credential, claims: claims)
    }
    guard let sub = claims["sub"]?.string, !sub.isEmpty else {
      throw IdentityProviderClaims.invalidIdPResponse("the IdP token has no subject (sub)")
    }
    let info = ProviderInfo(
      providerID: credential.providerID, rawID: sub, email: claims["email"]?.string?.lowercased(),
      displayName: claims["name"]?.string ?? credential.fullName, photoURL: claims["picture"]?.string.flatMap(URL.init))
    try IdentityProviderClaims.checkStorable(info)
    let owner = try store.account(provider: info.providerID, rawID: sub)

    if let token = request.idToken {  // link to the signed-in user
      let (uid, _) = try tokens.verifiedUser(of: token)
      if let owner, owner.uid != uid {
        var error = AuthError(
          firebase: .federatedUserIdAlreadyLinked,
          message: "This \(info.providerID) account is already linked to another user. Sign in with it "
            + "instead, or unlink it there first.")
        error.email = info.email ?? owner.email
        error.updatedCredential = try identities.pendingCredential(for: credential, claims: claims)
        throw error
      }
      return try store.transaction {
        let account = try store.updateAccount(uid: uid) { account in
          if owner == nil { account.federated.append(info) }
          // The IdP's email becomes the account's unless another account has it.
          if account.email == nil, let email = info.email, try !store.emailIsTaken(email, byOtherThan: uid) {
            account.email = email
            account.emailVerified = claims["email_verified"]?.bool ?? false
          }
        }
        let tokens = try self.tokens.issueTokens(for: uid, provider: info.providerID)
        return SignInResponse(localID: uid, email: account.email, tokens: tokens, isNewUser: false)
      }
    }

    if let owner {
      guard !owner.disabled else {
        throw AuthError(firebase: .userDisabled)
      }
      // An account with a second factor asks for it here too, as after a password.
      return try await steps.finishFirstFactor(info.providerID) { FirstFactor(uid: owner.uid, email: owner.email) }
        .signed()
    }
    if let email = info.email, try store.emailIsTaken(email) {
      // Firebase answers needConfirmation: one account per email.
      var error = AuthError(
        .accountExistsWithDifferentCredential,
        "An account already exists for \(email) with another sign-in method. Sign in with that "
          + "method, then link \(info.providerID) to it.",
        serverMessage: SignInReply.CodingKeys.needConfirmation.stringValue)
      error.email = email
      error.updatedCredential = try identities.pendingCredential(for: credential, claims: claims)
      throw error
    }
    let uid = try EmbeddedDatabase.Account.newUID()
    return try await steps.finishFirstFactor(info.providerID) {
      try store.save(
        EmbeddedDatabase.Account(
          uid: uid, email: info.email, displayName: info.displayName, photoURL: info.photoURL,
          emailVerified: claims["email_verified"]?.bool ?? false, federated: [info],
          createdAt: now(), lastLoginAt: now(), validSince: now()))
      return FirstFactor(uid: uid, email: info.email, isNewUser: true)
    }.signed()
  }

}

extension EmbeddedBackend {
  /// Revokes Apple's token with a sign-in's authorization code, as Identity Toolkit v2's
  /// `accounts:revokeToken` does. The code must come from the trusted Apple IdP (its signature,
  /// issuer and audience checked as for an identity token), be unexpired and unused, and name
  /// the Apple account linked to the user of the ID token; a used code is remembered until it
  /// expires. With ``Configuration/acceptUnsignedIdPTokens`` (the emulator's rule) any code
  /// works once for a user linked to Apple. The account is unchanged.
  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    guard request.providerID == .apple else {
      throw AuthError(
        firebase: .invalidProviderId,
        message: "Only Sign in with Apple tokens can be revoked (provider apple.com), not \(request.providerID).")
    }
    guard request.tokenType == .authorizationCode else {
      throw AuthError(
        firebase: .invalidTokenType,
        message: "Apple's token is revoked with the sign-in's authorization code (token type CODE).")
    }
    guard !request.token.isEmpty else {
      throw AuthError(firebase: .missingToken, message: "Pass the authorization code of the user's Sign in with Apple.")
    }
    // The only suspension, before anything is read.
    let code = try await identities.verifiedAuthorizationCode(request.token)
    let (uid, _) = try tokens.verifiedUser(of: request.idToken)
    guard let account = try store.account(uid: uid),
      let apple = account.federated.first(where: { $0.providerID == .apple })
    else {
      throw AuthError(
        firebase: .invalidIdpResponse, message: "This account has no Sign in with Apple to revoke; nothing changed.")
    }
    if let subject = code.subject, subject != apple.rawID {
      throw IdentityProviderClaims.invalidIdPResponse("the authorization code belongs to another Apple account")
    }
    let digest = Crypto.sha256Hex(Array(request.token.utf8))
    let now = now()
    guard try !store.spentProviderCodes.isSpent(digest: digest, now: now) else {
      throw IdentityProviderClaims.invalidIdPResponse(
        "the authorization code was used already; sign in with Apple again for a new one")
    }
    try store.spentProviderCodes.spend(digest: digest, until: code.expiresAt ?? now.addingTimeInterval(300), now: now)
  }

}

/// An IdP identity a conflicting sign-in verified, kept under its pending token.
struct PendingIdentity: Codable, Sendable, PendingStep {
  static let kind = "idp-pending"
  var uid: String
  var providerID: ProviderID
  var claims: [String: JSONValue]
}
