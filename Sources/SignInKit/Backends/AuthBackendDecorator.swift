/// A backend that wraps another and adds something to every call (a delay, a count, a log, a
/// retry), written once in ``intercept(_:forward:)``: the protocol forwards each ``AuthBackend``
/// call through it to ``wrapped``.
///
/// A wrapper that lists the calls by hand can miss one, and a call with a default (such as
/// ``AuthBackend/revokeRefreshToken(_:)``) then runs the default instead of the wrapped backend,
/// silently. Here every call goes through one funnel; a new backend call is added to this
/// protocol's extension and to ``AuthBackendCall`` once, and every decorator forwards it.
///
/// ```swift
/// struct LoggingBackend: AuthBackendDecorator {
///   let wrapped: any AuthBackend
///   func intercept<Result: Sendable>(
///     _ call: AuthBackendCall, forward: () async throws -> Result
///   ) async throws -> Result {
///     print("→", call)
///     return try await forward()
///   }
/// }
/// ```
///
/// - Concurrency: `Sendable`; ``intercept(_:forward:)`` runs on the caller's task, concurrently
///   with other calls, and `forward` may be called once, or not at all to answer without the
///   wrapped backend.
public protocol AuthBackendDecorator: AuthBackend {
  /// The backend the calls go to.
  var wrapped: any AuthBackend { get }

  /// Runs one call of kind `call`: `forward()` makes it on ``wrapped`` and returns its result.
  ///
  /// - Cancellation: `forward` honours the calling task's cancellation, as every backend call
  ///   must; anything the decorator waits on should too.
  func intercept<Result: Sendable>(_ call: AuthBackendCall, forward: () async throws -> Result) async throws -> Result
}

extension AuthBackendDecorator {
  /// Refuses: a decorator wraps one backend, and only it knows how to wrap another. A decorator
  /// that should follow ``Auth/switchTenant(to:)`` implements this, wrapping
  /// `wrapped.forTenant(tenantID)`.
  public func forTenant(_ tenantID: String?) throws -> any AuthBackend {
    throw AuthError(
      .misconfigured,
      "\(Self.self) cannot change tenant: implement forTenant(_:) to wrap wrapped.forTenant(_:), or make an Auth per "
        + "tenant.")
  }

  public func signUp(_ request: SignUpRequest) async throws -> SignInResponse {
    try await intercept(.signUp) { try await wrapped.signUp(request) }
  }

  public func signInWithPassword(_ request: PasswordSignInRequest) async throws -> SignInResponse {
    try await intercept(.signInWithPassword) { try await wrapped.signInWithPassword(request) }
  }

  public func signInWithIdp(_ request: IdpSignInRequest) async throws -> SignInResponse {
    try await intercept(.signInWithIdp) { try await wrapped.signInWithIdp(request) }
  }

  public func signInWithCustomToken(_ request: CustomTokenSignInRequest) async throws -> SignInResponse {
    try await intercept(.signInWithCustomToken) { try await wrapped.signInWithCustomToken(request) }
  }

  public func signInWithEmailLink(_ request: EmailLinkSignInRequest) async throws -> SignInResponse {
    try await intercept(.signInWithEmailLink) { try await wrapped.signInWithEmailLink(request) }
  }

  public func refresh(_ request: RefreshTokenRequest) async throws -> RefreshResponse {
    try await intercept(.refresh) { try await wrapped.refresh(request) }
  }

  public func lookup(_ request: LookupRequest) async throws -> AccountInfo {
    try await intercept(.lookup) { try await wrapped.lookup(request) }
  }

  public func update(_ request: UpdateAccountRequest) async throws -> UpdateAccountResponse {
    try await intercept(.update) { try await wrapped.update(request) }
  }

  public func delete(_ request: DeleteAccountRequest) async throws {
    try await intercept(.delete) { try await wrapped.delete(request) }
  }

  public func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?) async throws -> OobCodeResponse {
    try await intercept(.sendOobCode) { try await wrapped.sendOobCode(request, settings: settings) }
  }

  public func resetPassword(_ request: ResetPasswordRequest) async throws -> ResetPasswordResponse {
    try await intercept(.resetPassword) { try await wrapped.resetPassword(request) }
  }

  public func secondFactor(_ request: SecondFactorRequest) async throws -> SecondFactorResponse {
    try await intercept(.secondFactor) { try await wrapped.secondFactor(request) }
  }

  public func revokeRefreshToken(_ request: RefreshTokenRequest) async throws {
    try await intercept(.revokeRefreshToken) { try await wrapped.revokeRefreshToken(request) }
  }

  public func revokeToken(_ request: RevokeTokenRequest) async throws {
    try await intercept(.revokeToken) { try await wrapped.revokeToken(request) }
  }

  public func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneCodeResponse {
    try await intercept(.sendPhoneCode) { try await wrapped.sendPhoneCode(request) }
  }

  public func signInWithPhoneNumber(_ request: PhoneSignInRequest) async throws -> SignInResponse {
    try await intercept(.signInWithPhoneNumber) { try await wrapped.signInWithPhoneNumber(request) }
  }

  public func passkey(_ request: PasskeyRequest) async throws -> PasskeyResponse {
    try await intercept(.passkey) { try await wrapped.passkey(request) }
  }

  public func passwordPolicy() async throws -> PasswordPolicy {
    try await intercept(.passwordPolicy) { try await wrapped.passwordPolicy() }
  }

  public func signInMethods(forEmail email: String) async throws -> [ProviderID] {
    try await intercept(.signInMethods) { try await wrapped.signInMethods(forEmail: email) }
  }

  public var tenantID: String? { wrapped.tenantID }
}
