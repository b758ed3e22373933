import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

/// Sign-in with an identity provider, and who it says the user is: an ID token checked against
/// the trusted IdP's keys, an access token's userinfo, a SAML response, or the identity a
/// conflicting sign-in verified before (kept under its pending token); and the revocation of
/// Apple's token with an authorization code.
///
/// - Concurrency: not `Sendable`; made and used on the backend's actor (`EmbeddedBackend.identities`);
///   its async calls run on their caller's actor.
package struct IdentityProviderSignIn {
  let store: EmbeddedStore
  let configuration: EmbeddedBackend.Configuration
  let now: @Sendable () -> Date
  let identityKeys: JSONWebKeySetCache
  let steps: SignInSteps
  let tokens: TokenIssuer

  /// How long a conflict's pending token can be signed in with.
  static let pendingTokenLifetime: TimeInterval = 60 * 60

  /// Refuses an Apple ID token used before, as Firebase does ("Duplicate credential received"):
  /// each answers one sign-in. Keyed by its nonce claim, kept until the token expires.
  func spendAppleToken(_ credential: ProviderCredential, claims: [String: JSONValue]) throws {
    guard credential.providerID == .apple, let nonce = claims["nonce"]?.string, !nonce.isEmpty else { return }
    let digest = StoredSecret.digest("apple-nonce:" + nonce)
    let now = now()
    guard try !store.spentProviderCodes.isSpent(digest: digest, now: now) else {
      throw AuthError(
        firebase: .missingOrInvalidNonce, "Duplicate credential received. Please try again with a new credential.",
        message: "This Apple sign-in was used already: sign in with Apple again, or use the conflict's "
          + "updatedCredential, which carries a pending token instead.")
    }
    let expiry = claims["exp"]?.number.map(Date.init(timeIntervalSince1970:)) ?? now.addingTimeInterval(600)
    try store.spentProviderCodes.spend(digest: digest, until: max(expiry, now.addingTimeInterval(60)), now: now)
  }

  /// The credential a conflict hands back: the same IdP identity behind a pending token, so
  /// signing in with it sends no IdP token a second time (FirebaseAuth's `pendingToken`).
  func pendingCredential(for credential: ProviderCredential, claims: [String: JSONValue]) throws -> ProviderCredential {
    let token = Base64URL.encode(try Crypto.randomBytes(32))
    let sub = claims["sub"]?.string ?? ""
    try steps.addPending(
      PendingIdentity(
        uid: "idp:\(credential.providerID.rawValue):\(sub)", providerID: credential.providerID, claims: claims),
      kind: PendingIdentity.kind, key: token, until: now().addingTimeInterval(Self.pendingTokenLifetime))
    var updated = credential
    updated.pendingToken = token
    updated.rawNonce = nil
    return updated
  }

  /// The claims a pending token stands for.
  ///
  /// - Throws: `INVALID_IDP_RESPONSE` for a token unknown, expired or for another provider.
  func pendingIdentity(_ token: String, of provider: ProviderID) throws -> [String: JSONValue] {
    let found: PendingIdentity? = try store.pendingSteps.step(PendingIdentity.kind, key: token, now: now())
    guard let found, found.providerID == provider else {
      throw Self.invalidIdPResponse("the pending token is unknown, expired or for another provider; sign in again")
    }
    return found.claims
  }

  /// The claims of a SAML provider's response, which the emulators' hosted handlers write as
  /// JSON (`{"assertion":{"subject":{"nameId":…},"attributeStatements":…}}`): only with
  /// ``Configuration/acceptUnsignedIdPTokens``, as there is no signature to check. As the
  /// Firebase emulator reads it, the subject's `nameId` is the user's email when it is one, and
  /// the user is the fake ID token's `sub` beside it, or the `nameId` when there is none.
  nonisolated(nonsending) func samlClaims(_ response: String, of credential: ProviderCredential) async throws
    -> [String: JSONValue]
  {
    guard credential.providerID.rawValue.hasPrefix(WireProviderID.samlPrefix) else {
      throw Self.invalidIdPResponse(
        "a SAMLResponse was sent for \(credential.providerID), which is not a saml. provider")
    }
    guard configuration.acceptUnsignedIdPTokens else {
      throw AuthError(
        firebase: .operationNotAllowed,
        message: "SAML sign-in needs Firebase's hosted handler; the embedded backend reads only the emulator's "
          + "unsigned SAML responses (acceptUnsignedIdPTokens).")
    }
    guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.utf8)) else {
      throw Self.invalidIdPResponse("the SAMLResponse is not a JSON object")
    }
    guard let assertion = object["assertion"]?.object else {
      throw Self.invalidIdPResponse("the SAMLResponse has no assertion")
    }
    guard let subject = assertion["subject"]?.object else {
      throw Self.invalidIdPResponse("the SAMLResponse's assertion has no subject")
    }
    guard let nameID = subject["nameId"]?.string, !nameID.isEmpty else {
      throw Self.invalidIdPResponse("the SAMLResponse's assertion.subject has no nameId")
    }
    var claims: [String: JSONValue] = ["sub": .string(nameID)]
    if credential.idToken?.isEmpty == false { claims = try await verifiedClaims(of: credential) }
    if AccountRules.isEmail(nameID) { claims["email"] = .string(nameID.lowercased()) }
    claims["email_verified"] = .bool(true)
    return claims
  }

  /// The claims of the credential's IdP token, checked as configured; for `apple.com` the raw
  /// nonce must hash to the token's `nonce` claim.
  nonisolated(nonsending) func verifiedClaims(of credential: ProviderCredential) async throws -> [String: JSONValue] {
    guard let token = credential.idToken, !token.isEmpty else {
      throw Self.invalidIdPResponse("the credential has no ID token")
    }
    let claims: [String: JSONValue]
    if configuration.acceptUnsignedIdPTokens {
      if token.hasPrefix("{") {
        guard
          let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(token.utf8))
        else { throw Self.invalidIdPResponse("the ID token is not a JSON object") }
        claims = object
      } else {
        do {
          claims = try JSONWebToken(decoding: token).claims
        } catch {
          throw Self.invalidIdPResponse("\(error)")
        }
      }
    } else {
      guard let trust = configuration.identityProviders[credential.providerID] else {
        throw AuthError(
          firebase: .operationNotAllowed,
          message: "\(credential.providerID) sign-in is not enabled: configure its issuer and keys in "
            + "EmbeddedBackend.Configuration.identityProviders.")
      }
      let verifier = JWTVerifier(issuer: trust.issuer, audiences: trust.audiences, now: now)
      do {
        claims = try await identityKeys.verify(token, with: verifier).claims
      } catch let error as AuthError {
        throw error
      } catch {
        throw Self.invalidIdPResponse("\(error)")
      }
    }
    if credential.providerID == .apple, !configuration.acceptUnsignedIdPTokens || credential.rawNonce != nil {
      // Unsigned tokens are the emulator's fakes, which anyone can make with any nonce: the
      // nonce is checked only when the sign-in gives one, as for other providers.
      guard let raw = credential.rawNonce,
        claims["nonce"]?.string == EmbeddedIdentityProvider.appleNonceClaim(for: raw)
      else {
        throw AuthError(
          firebase: .missingOrInvalidNonce,
          message: "Sign in with Apple needs the raw nonce whose SHA-256 is the token's nonce claim.")
      }
    } else if let raw = credential.rawNonce, claims["nonce"]?.string != raw {
      // A raw nonce given with any other token must be the one the token carries.
      throw AuthError(
        firebase: .missingOrInvalidNonce,
        message: "The ID token was not issued for this nonce; get a new token with the nonce you pass.")
    }
    return claims
  }

  /// The issuer's userinfo claims for a credential that has an access token and no ID token;
  /// `nil` when it has an ID token.
  ///
  /// An access token says nothing about which app it was issued to, so before userinfo is asked
  /// who it belongs to, token introspection (RFC 7662) must say it is active and was issued to
  /// one of the trusted audiences (`client_id` or `aud`), and userinfo's `sub` must be the one
  /// introspection names. This is the check OAuth 2.0 Security BCP (RFC 9700 §4.10) asks for;
  /// without an introspection endpoint the credential is refused.
  nonisolated(nonsending) func userinfoClaims(of credential: ProviderCredential) async throws -> [String: JSONValue]? {
    guard credential.idToken?.isEmpty ?? true, let accessToken = credential.accessToken else { return nil }
    guard let trust = configuration.identityProviders[credential.providerID], let endpoint = trust.userinfoEndpoint
    else {
      throw Self.invalidIdPResponse(
        "the credential has only an access token and \(credential.providerID) has no userinfo endpoint configured")
    }
    guard let introspection = trust.introspectionEndpoint else {
      throw Self.invalidIdPResponse(
        "the credential has only an access token, whose audience cannot be checked without an introspection "
          + "endpoint; send the ID token (request the openid scope)")
    }
    let introspected = try await claims(
      from: HTTPRequest.form(introspection, [("token", accessToken)]), what: "introspection endpoint")
    let issuedTo = Set([introspected["client_id"]?.string, introspected["aud"]?.string].compactMap { $0 })
      .union(introspected["aud"]?.array?.compactMap(\.string) ?? [])
    guard introspected["active"]?.bool == true, !issuedTo.isDisjoint(with: trust.audiences) else {
      throw Self.invalidIdPResponse("the access token is not active or was issued to another app")
    }
    let claims = try await claims(
      from: HTTPRequest(method: "GET", url: endpoint, headers: [("Authorization", "Bearer \(accessToken)")]),
      what: "userinfo endpoint")
    if let subject = introspected["sub"]?.string, claims["sub"]?.string != subject {
      throw Self.invalidIdPResponse("userinfo and introspection name different users")
    }
    return claims
  }

  private nonisolated(nonsending) func claims(from request: HTTPRequest, what: String) async throws -> [String:
    JSONValue]
  {
    let response = try await configuration.transport.send(request)
    guard response.status == 200,
      let claims = try? JSONDecoder().decode([String: JSONValue].self, from: response.body)
    else {
      throw Self.invalidIdPResponse("the issuer's \(what) refused the access token (HTTP \(response.status))")
    }
    return claims
  }

  static func invalidIdPResponse(_ detail: String) -> AuthError {
    AuthError(
      firebase: .invalidIdpResponse, "\(detail)", message: "The identity provider's token was refused: \(detail).")
  }

  /// Refuses an identity whose fields the account could not keep: a user id (`sub`) over 256
  /// bytes or with a control character, an email that is not one, a name or picture URL past
  /// the account's limits. An IdP's claims are a caller's input like any other.
  static func checkStorable(_ info: ProviderInfo) throws {
    guard info.rawID.utf8.count <= FieldLimits.Field.providerUserID.limit,
      !FieldLimits.hasControlCharacters(info.rawID)
    else { throw invalidIdPResponse("the subject (sub) is over 256 bytes or has a control character") }
    if let email = info.email, !AccountRules.isEmail(email) {
      throw invalidIdPResponse("the email claim is not an address of at most \(FieldLimits.email) bytes")
    }
    do {
      try FieldLimits.checkProfile(displayName: info.displayName, photoURL: info.photoURL)
    } catch let error as AuthError {
      throw invalidIdPResponse("the name or picture claim is too long (\(error.message))")
    }
  }

  /// The subject and expiry of an authorization code from the trusted Apple IdP.
  nonisolated(nonsending) func verifiedAuthorizationCode(_ code: String) async throws -> (
    subject: String?, expiresAt: Date?
  ) {
    if configuration.acceptUnsignedIdPTokens {
      let claims = (try? JSONWebToken(decoding: code))?.claims
      return (claims?["sub"]?.string, claims?["exp"]?.number.map(Date.init(timeIntervalSince1970:)))
    }
    guard let trust = configuration.identityProviders[.apple] else {
      throw AuthError(
        firebase: .operationNotAllowed,
        message: "Sign in with Apple is not enabled: configure its issuer and keys in "
          + "EmbeddedBackend.Configuration.identityProviders.")
    }
    let claims: [String: JSONValue]
    do {
      claims = try await identityKeys.verify(
        code, with: JWTVerifier(issuer: trust.issuer, audiences: trust.audiences, now: now)
      )
      .claims
    } catch {
      throw Self.invalidIdPResponse("the authorization code is not a valid, unexpired code from Apple")
    }
    guard claims["token_use"]?.string == EmbeddedIdentityProvider.authorizationCodeUse else {
      throw Self.invalidIdPResponse("that is not an authorization code")
    }
    return (claims["sub"]?.string, claims["exp"]?.number.map(Date.init(timeIntervalSince1970:)))
  }

  package nonisolated(nonsending) func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    // A hosted handler's answer carries the provider's response in the URL its page finished on.
    let credential = request.credential.resolvingResponseURL
    // An access token alone: ask the issuer whom it was issued to and who it belongs to. These
    // are the only suspensions, and they come before anything is read, so the call stays
    // linearizable.
    let claims: [String: JSONValue]
    if let pendingToken = credential.pendingToken, !pendingToken.isEmpty {
      // An identity verified before, by a sign-in that ended in a conflict: its IdP token is
      // not sent again.
      claims = try pendingIdentity(pendingToken, of: credential.providerID)
    } else if let samlResponse = credential.samlResponse {
      claims = try await samlClaims(samlResponse, of: credential)
    } else if let userinfo = try await userinfoClaims(of: credential) {
      claims = userinfo
    } else {
      claims = try await verifiedClaims(of: credential)
      try spendAppleToken(credential, claims: claims)
    }
    guard let sub = claims["sub"]?.string, !sub.isEmpty else {
      throw IdentityProviderSignIn.invalidIdPResponse("the IdP token has no subject (sub)")
    }
    let info = ProviderInfo(
      providerID: credential.providerID, rawID: sub, email: claims["email"]?.string?.lowercased(),
      displayName: claims["name"]?.string ?? credential.fullName, photoURL: claims["picture"]?.string.flatMap(URL.init))
    try IdentityProviderSignIn.checkStorable(info)
    let owner = try store.account(provider: info.providerID, rawID: sub)

    if let token = request.idToken {  // link to the signed-in user
      let (uid, _) = try tokens.verifiedUser(of: token)
      if let owner, owner.uid != uid {
        var error = AuthError(
          firebase: .federatedUserIdAlreadyLinked,
          message: "This \(info.providerID) account is already linked to another user. Sign in with it "
            + "instead, or unlink it there first.")
        error.email = info.email ?? owner.email
        error.updatedCredential = try pendingCredential(for: credential, claims: claims)
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
      error.updatedCredential = try pendingCredential(for: credential, claims: claims)
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

  /// Revokes Apple's token with a sign-in's authorization code, as Identity Toolkit v2's
  /// `accounts:revokeToken` does. The code must come from the trusted Apple IdP (its signature,
  /// issuer and audience checked as for an identity token), be unexpired and unused, and name
  /// the Apple account linked to the user of the ID token; a used code is remembered until it
  /// expires. With ``Configuration/acceptUnsignedIdPTokens`` (the emulator's rule) any code
  /// works once for a user linked to Apple. The account is unchanged.
  package nonisolated(nonsending) func revokeToken(_ request: RevokeTokenRequest) async throws {
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
    let code = try await verifiedAuthorizationCode(request.token)
    let (uid, _) = try tokens.verifiedUser(of: request.idToken)
    guard let account = try store.account(uid: uid),
      let apple = account.federated.first(where: { $0.providerID == .apple })
    else {
      throw AuthError(
        firebase: .invalidIdpResponse, message: "This account has no Sign in with Apple to revoke; nothing changed.")
    }
    if let subject = code.subject, subject != apple.rawID {
      throw IdentityProviderSignIn.invalidIdPResponse("the authorization code belongs to another Apple account")
    }
    let digest = Crypto.sha256Hex(Array(request.token.utf8))
    let now = now()
    guard try !store.spentProviderCodes.isSpent(digest: digest, now: now) else {
      throw IdentityProviderSignIn.invalidIdPResponse(
        "the authorization code was used already; sign in with Apple again for a new one")
    }
    try store.spentProviderCodes.spend(digest: digest, until: code.expiresAt ?? now.addingTimeInterval(300), now: now)
  }
}
