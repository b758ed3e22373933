import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded

/// The one call a scripted backend answers differently from the wrapped client, and what it
/// shows a test. Every other call is `AuthBackendDecorator`'s forward through
/// ``ScriptedBackend/intercept(_:forward:)``.
extension ScriptedBackend {
  /// IdP tokens are not verified, as in the Firebase emulator: a JWT or a JSON object names its
  /// user with `sub`, and any other token (``StubProvider``'s `google.com:subject-1`) is its own
  /// user. A raw nonce, when the sign-in gives one, must still match the token's.
  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    var request = request
    request.credential = Self.namingItsUser(request.credential)
    return try await intercept(.signInWithIdp) { [wrapped, request] in try await wrapped.signInWithIdp(request) }
  }

  /// The codes the backend would have texted, oldest first: what a test types.
  public func textedCodes() async -> [PhoneVerificationCode] {
    await accounts.verificationCodes()
  }

  /// `credential` with an ID token the accounts read without a signature: a JWT or JSON object
  /// as it is, any other token (or an access token alone) as `{"sub": token}`, carrying the
  /// nonce claim its raw nonce calls for.
  static func namingItsUser(_ credential: ProviderCredential) -> ProviderCredential {
    guard let token = credential.idToken ?? credential.accessToken, !token.isEmpty else { return credential }
    if token.hasPrefix("{") || (try? JSONWebToken(decoding: token)) != nil { return credential }
    var claims: [String: JSONValue] = ["sub": .string(token)]
    if let raw = credential.rawNonce {
      claims["nonce"] = .string(
        credential.providerID == .apple ? EmbeddedIdentityProvider.appleNonceClaim(for: raw) : raw)
    }
    var named = credential
    named.idToken = (try? JSONEncoder().encode(claims)).map { String(decoding: $0, as: UTF8.self) }
    return named
  }
}
