import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInKitEmbedded

extension ScriptedBackend {
  public func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    try await begin(.signUp, request)
    return try await accounts.signUp(request)
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithPassword, request)
    return try await accounts.signInWithPassword(request)
  }

  /// Custom tokens may be unsigned, a JSON object naming the user (`{"uid":"u1"}`), as the
  /// Firebase emulator accepts them; the account is made on first use.
  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithCustomToken, request)
    return try await accounts.signInWithCustomToken(request)
  }

  /// IdP tokens are not verified, as in the Firebase emulator: a JWT or a JSON object names its
  /// user with `sub`, and any other token (``StubProvider``'s `google.com:subject-1`) is its own
  /// user. A raw nonce, when the sign-in gives one, must still match the token's.
  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithIdp, request)
    var request = request
    request.credential = Self.namingItsUser(request.credential)
    return try await accounts.signInWithIdp(request)
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithEmailLink, request)
    return try await accounts.signInWithEmailLink(request)
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    try await begin(.refresh, request)
    return try await accounts.refresh(request)
  }

  public func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    try await begin(.lookup, request)
    return try await accounts.lookup(request)
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    try await begin(.update, request)
    return try await accounts.update(request)
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    try await begin(.delete, request)
    try await accounts.delete(request)
  }

  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    try await begin(.secondFactor, request)
    return try await accounts.secondFactor(request)
  }

  /// Recorded, and otherwise nothing: like Firebase's REST API, which has no call that revokes
  /// one refresh token, the refresh token keeps working at the backend after a sign-out.
  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {
    try await begin(.revokeRefreshToken, request)
  }

  /// Revokes Apple's token: any non-empty code works once, for a user linked to Apple.
  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    try await begin(.revokeToken, request)
    try await accounts.revokeToken(request)
  }

  /// Texts nothing: the code is listed by ``textedCodes()``, as the emulator lists it.
  public func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse {
    try await begin(.sendPhoneCode, request)
    return try await accounts.sendPhoneCode(request)
  }

  public func signInWithPhoneNumber(_ request: PhoneSignInRequest) async throws -> SignInResponse {
    try await begin(.signInWithPhoneNumber, request)
    return try await accounts.signInWithPhoneNumber(request)
  }

  public func passkey(_ request: PasskeyRequest) async throws -> PasskeyResponse {
    try await begin(.passkey, request)
    return try await accounts.passkey(request)
  }

  /// The codes the backend would have texted, oldest first: what a test types.
  public func textedCodes() async -> [PhoneVerificationCode] {
    await accounts.verificationCodes()
  }

  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    try await begin(.sendOobCode, request)
    return try await accounts.sendOobCode(request, settings: settings)
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    try await begin(.resetPassword, request)
    return try await accounts.resetPassword(request)
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
