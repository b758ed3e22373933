/// Where ``FirebaseBackend`` gets the App Check token it sends as `X-Firebase-AppCheck` on
/// every Identity Toolkit and Secure Token call, for projects that enforce App Check: on Apple
/// platforms an adapter over Firebase's `AppCheck` (App Attest, DeviceCheck, or the debug
/// provider); in tests a provider that mints tokens for `signin serve --app-check-secret`.
///
/// ```swift
/// struct FirebaseAppCheck: AppCheckTokenProvider {
///   func token(forcingRefresh: Bool) async throws -> AppCheckToken {
///     let token = try await AppCheck.appCheck().token(forcingRefresh: forcingRefresh)
///     return AppCheckToken(token: token.token, expiresAt: token.expirationDate)
///   }
///   func limitedUseToken() async throws -> AppCheckToken {
///     let token = try await AppCheck.appCheck().limitedUseToken()
///     return AppCheckToken(token: token.token, expiresAt: token.expirationDate)
///   }
/// }
/// ```
///
/// - Concurrency: `Sendable`; called from any isolation, concurrently.
public protocol AppCheckTokenProvider: Sendable {
  /// A token for the app; a new one when `forcingRefresh` (the backend asks for one after a
  /// token expired, or after the server refused it).
  ///
  /// - Cancellation: cancelling the calling task may stop the attestation; throw then.
  func token(forcingRefresh: Bool) async throws -> AppCheckToken

  /// A token the server accepts once (App Check's replay protection), for backends set to
  /// ``FirebaseBackend/AppCheck/limitedUse``.
  func limitedUseToken() async throws -> AppCheckToken
}
