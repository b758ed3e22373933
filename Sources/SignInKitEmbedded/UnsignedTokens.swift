import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// New tokens whose ID token is still to be signed. The backend fixes the claims and records
/// the refresh token on its actor, inside the call's transaction; the RSA signature, the
/// costliest step of a sign-in or refresh, is made after it and off the actor, so the backend
/// answers other calls meanwhile.
///
/// The signing key is loaded on the actor, before anything is committed, so a key that cannot
/// be read fails the call while it can still change nothing.
///
/// - Concurrency: `Sendable` value; ``signed()`` runs on the concurrent executor.
struct UnsignedTokens: Sendable {
  let claims: [String: JSONValue]
  let refreshToken: String
  let expiresIn: Duration
  let key: LazySigningKey.Loaded

  /// The tokens, signed off the caller's actor.
  @concurrent func signed() async throws -> IssuedTokens {
    IssuedTokens(
      idToken: try JSONWebToken.signed(claims: claims, key: key.key, kid: key.keyID), refreshToken: refreshToken,
      expiresIn: expiresIn)
  }
}

/// A reply to finish once its tokens are signed (``UnsignedTokens``).
///
/// - Concurrency: `Sendable` value.
struct UnsignedReply<Reply: Sendable>: Sendable {
  let tokens: UnsignedTokens
  let reply: @Sendable (IssuedTokens) -> Reply

  /// The reply with its tokens, signed off the caller's actor.
  func signed() async throws -> Reply {
    reply(try await tokens.signed())
  }
}
