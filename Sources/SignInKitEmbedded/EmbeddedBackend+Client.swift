import Foundation
import SignInKit

/// The calls an app makes: `FirebaseBackend`'s mapping of each to the wire layer's body and back,
/// handed to the identity service in this process (``InProcessTransport``), so they behave as
/// they do over HTTP against `signin serve`. Each forwards to ``client``; cancellation, ordering
/// and errors are the service's.
extension EmbeddedBackend {
  /// The client of this backend's project: made for each call, because the service it reaches
  /// holds this backend, which must not hold it back.
  package nonisolated var client: FirebaseBackend {
    var client = clientShape
    client.inProcess = InProcessTransport(service: IdentityToolkitService(serving: self))
    return client
  }

  public nonisolated func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    try await client.signUp(request)
  }

  public nonisolated func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    try await client.signInWithPassword(request)
  }

  public nonisolated func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    try await client.signInWithIdp(request)
  }

  public nonisolated func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    try await client.signInWithCustomToken(request)
  }

  public nonisolated func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    try await client.signInWithEmailLink(request)
  }

  public nonisolated func signInWithPhoneNumber(_ request: PhoneSignInRequest) async throws -> SignInResponse {
    try await client.signInWithPhoneNumber(request)
  }

  public nonisolated func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse {
    try await client.sendPhoneCode(request)
  }

  public nonisolated func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    try await client.refresh(request)
  }

  public nonisolated func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    try await client.lookup(request)
  }

  public nonisolated func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    try await client.update(request)
  }

  public nonisolated func delete(_ request: DeleteAccountRequest) async throws {
    try await client.delete(request)
  }

  public nonisolated func sendOobCode(
    _ request: OobCodeRequest, settings: ActionCodeSettings?
  ) async throws -> OobCodeResponse {
    try await client.sendOobCode(request, settings: settings)
  }

  public nonisolated func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    try await client.resetPassword(request)
  }

  public nonisolated func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    try await client.secondFactor(request)
  }

  public nonisolated func passkey(_ request: PasskeyRequest) async throws -> PasskeyResponse {
    try await client.passkey(request)
  }

  public nonisolated func passwordPolicy() async throws -> PasswordPolicy {
    try await client.passwordPolicy()
  }

  public nonisolated func signInMethods(forEmail email: String) async throws -> [ProviderID] {
    try await client.signInMethods(forEmail: email)
  }

  public nonisolated func revokeToken(_ request: RevokeTokenRequest) async throws {
    try await client.revokeToken(request)
  }
}
