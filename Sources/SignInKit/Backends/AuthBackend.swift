/// An identity service that ``Auth`` exchanges credentials with.
///
/// One method per Identity Toolkit v1 / Secure Token call (see the Firebase Auth REST reference),
/// typed requests and responses, and every failure thrown as an ``AuthError`` whose code is mapped
/// from the server's message (`EMAIL_EXISTS` → ``AuthError/Code/emailAlreadyInUse``, …). A backend
/// holds no session: `Auth` passes the tokens it needs in each request.
///
/// Conformers: `FirebaseBackend` (REST), `EmbeddedBackend` (in-process, module
/// `SignInKitEmbedded`), and `ScriptedBackend` for tests (module `SignInKitTesting`).
///
/// - Concurrency: `Sendable`; callable from any isolation. Every method must honour cancellation
///   of the calling task (stop the request and throw) and must not change state when it throws.
public protocol AuthBackend: Sendable {
  /// `accounts:signUp`: a new email/password or anonymous account, or links email/password to
  /// the user of `request.idToken`.
  func signUp(_ request: SignUpRequest) async throws -> SignInResponse
  /// `accounts:signInWithPassword`.
  func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse
  /// `accounts:signInWithIdp`: signs in, or links when `request.idToken` is set.
  func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse
  /// `accounts:signInWithCustomToken`: signs in the user a custom token names, creating the
  /// account on first use.
  func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse
  /// Secure Token `token` with `grant_type=refresh_token`.
  func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse
  /// `accounts:lookup` for the user of an ID token.
  func lookup(_ request: LookupRequest) async throws -> AccountInfo
  /// `accounts:update`: profile, email, password, unlink, or applying an action code.
  func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse
  /// `accounts:delete` for the user of an ID token.
  func delete(_ request: DeleteAccountRequest) async throws
  /// `accounts:signInWithEmailLink`: signs in with the code of an emailed sign-in link,
  /// creating the account on first use, or links the email to the user of `request.idToken`.
  func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse
  /// `accounts:sendOobCode`: a password-reset, verification, change-of-email or sign-in email,
  /// its link built from `settings` (continue URL, app to open it).
  func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse
  /// `accounts:resetPassword`: without a new password it reads any action code without using
  /// it up (what it is for, for whom); with one it confirms a password reset.
  func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse
  /// Identity Platform's second-factor calls (TOTP enrollment, withdrawal, and the second step
  /// of a sign-in). A backend without second factors throws
  /// ``AuthError/Code/operationNotAllowed``.
  func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse
  /// Revokes `request`'s refresh token at the backend, so a copy of the session taken before a
  /// sign-out cannot be refreshed afterwards. ``Auth/signOut()`` calls it after the session was
  /// removed locally; a failure there does not undo the sign-out.
  ///
  /// ``FirebaseBackend``'s does nothing: the Firebase Auth REST API has no client call that
  /// revokes a refresh token (only the Admin SDK's `revokeRefreshTokens`, for every session of a
  /// user).
  func revokeRefreshToken(_ request: RefreshTokenRequest) async throws
  /// Identity Toolkit v2 `accounts:revokeToken`: revokes the identity provider's token of the
  /// user of `request.idToken` at the provider (Sign in with Apple, with an authorization
  /// code). The account itself is unchanged.
  ///
  /// - Throws: ``AuthError/Code/invalidCredential`` for a code that is not the user's, was used
  ///   already, or expired; ``AuthError/Code/operationNotAllowed`` for a provider that cannot
  ///   revoke.
  func revokeToken(_ request: RevokeTokenRequest) async throws
  /// `accounts:sendVerificationCode`: texts a code to a phone number (E.164), proving the app
  /// first where the backend asks for it (``FirebaseBackend/appVerifier``). A backend without
  /// phone numbers throws ``AuthError/Code/operationNotAllowed``.
  ///
  /// - Throws: ``AuthError/Code/invalidPhoneNumber``, ``AuthError/Code/quotaExceeded``,
  ///   ``AuthError/Code/tooManyRequests``, ``AuthError/Code/appVerificationFailed``.
  func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse
  /// `accounts:signInWithPhoneNumber`: the texted code signs in, or links or updates the number
  /// of the user of `request.idToken`. A backend without phone numbers throws
  /// ``AuthError/Code/operationNotAllowed``.
  ///
  /// - Throws: ``AuthError/Code/invalidVerificationCode``, ``AuthError/Code/verificationExpired``,
  ///   ``AuthError/Code/credentialAlreadyInUse`` (the number is another account's).
  func signInWithPhoneNumber(_ request: PhoneSignInRequest) async throws -> SignInResponse
  /// Identity Platform's passkey calls (``PasskeyRequest``). A backend without passkeys throws
  /// ``AuthError/Code/operationNotAllowed``.
  ///
  /// - Throws: ``AuthError/Code/passkeyRefused`` when the backend refuses an authenticator's
  ///   answer, ``AuthError/Code/noPasskey`` for a credential no account has.
  func passkey(_ request: PasskeyRequest) async throws -> PasskeyResponse
  /// Identity Toolkit v2 `passwordPolicy`: what the project (or the backend's tenant) asks of a
  /// new password.
  func passwordPolicy() async throws -> PasswordPolicy
  /// `accounts:createAuthUri` for an email: how the account with `email` signs in (``ProviderID/password``,
  /// ``ProviderID/emailLink``, identity providers). Empty when no account has it, and always
  /// when the project protects against email enumeration (Firebase's default since 2023).
  func signInMethods(forEmail email: String) async throws -> [ProviderID]
  /// The Identity Platform tenant whose users this backend serves, or `nil` for the project's
  /// own. `Auth` keeps a tenant's session apart and refuses another tenant's tokens.
  var tenantID: String? { get }
  /// The same backend for the users of tenant `tenantID` (`nil`: the project's own), which
  /// ``Auth/switchTenant(to:)`` moves to.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` when this backend cannot serve another tenant.
  func forTenant(_ tenantID: String?) throws -> any AuthBackend
}

extension AuthBackend {
  /// ``sendOobCode(_:settings:)`` without settings.
  public func sendOobCode(_ request: OobCodeRequest) async throws -> OobCodeResponse {
    try await sendOobCode(request, settings: nil)
  }
}
