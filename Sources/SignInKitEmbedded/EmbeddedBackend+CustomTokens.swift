import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

extension EmbeddedBackend {
  /// The `aud` of every Firebase custom token.
  public static let customTokenAudience =
    "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

  /// Signs in with a custom token your server minted (`accounts:signInWithCustomToken`),
  /// creating the account `uid` on first use. The token's `claims` are put in the ID tokens of
  /// this session, refreshed ones included; an administrator's custom claims win over them.
  ///
  /// A token is accepted when a service account in
  /// ``Configuration-swift.struct/trustedServiceAccounts`` signed it (RS256, `iss` = `sub` = its
  /// email, the custom-token audience, at most an hour long and not expired), or, with
  /// ``Configuration-swift.struct/acceptUnsignedCustomTokens``, when it is unsigned (`alg`
  /// `none`) or a bare JSON object such as `{"uid":"u1","claims":{"admin":true}}`, as the
  /// Firebase emulator accepts them.
  ///
  /// A custom token signs in without a second factor, even for an account that has one, as in
  /// Firebase: the token is the developer's server vouching for the user, and that server does
  /// its own checks.
  ///
  /// - Throws: `INVALID_CUSTOM_TOKEN : <why>`, `MISSING_CUSTOM_TOKEN`, `FORBIDDEN_CLAIM : <name>`
  ///   or `USER_DISABLED`, as Firebase does. Nothing is stored for a refused token.
  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    let (uid, claims) = try CustomTokenCheck(configuration: configuration, now: now).customTokenSubject(request.token)
    return try store.transaction {
      let existing = try store.account(uid: uid)
      if existing?.disabled == true {
        throw AuthError(firebase: .userDisabled)
      }
      var account =
        existing ?? EmbeddedDatabase.Account(uid: uid, createdAt: now(), lastLoginAt: now(), validSince: now())
      if existing == nil { account.customAuth = true }
      account.lastLoginAt = now()
      try store.save(account)
      let tokens = try self.tokens.issueTokens(for: uid, provider: .custom, claims: claims)
      return SignInResponse(localID: uid, email: account.email, tokens: tokens, isNewUser: existing == nil)
    }
  }

  /// How far a signing server's clock may run ahead of this one: a custom token issued later
  /// than that is refused, so `iat` cannot stretch a token's life past an hour.
  static let customTokenClockSkew: TimeInterval = 60

}
