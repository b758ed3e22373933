/// Where a ``FirebaseBackend`` gets reCAPTCHA Enterprise tokens, for projects that protect
/// email/password or phone sign-in with reCAPTCHA (SMS defense). SignInKit has no dependency on
/// Google's reCAPTCHA SDK: an app that needs tokens implements this over it
/// (`Recaptcha.fetchClient(withSiteKey:)`, then `client.execute(withAction:)`), and tests and
/// `signin` use `TestRecaptchaTokenProvider`, whose tokens `signin serve` and the embedded
/// backend accept.
///
/// ```swift
/// struct EnterpriseTokens: RecaptchaTokenProvider {
///   var clientType: RecaptchaClientType { .ios }
///   func token(for action: RecaptchaAction, siteKey: String) async throws -> String {
///     let client = try await Recaptcha.fetchClient(withSiteKey: siteKey)
///     return try await client.execute(withAction: RecaptchaAction(customAction: action.rawValue))
///   }
/// }
/// backend.recaptcha = EnterpriseTokens()
/// ```
///
/// The backend reads the project's (or tenant's) reCAPTCHA settings once, the first time a
/// protected call is made, and asks for a token only for providers set to `AUDIT` or `ENFORCE`.
///
/// - Concurrency: `Sendable`; called from any task, possibly several at once.
public protocol RecaptchaTokenProvider: Sendable {
  /// The platform whose reCAPTCHA key the tokens are made with; the backend asks the project for
  /// that platform's key and names it beside each token.
  var clientType: RecaptchaClientType { get }

  /// A token for one call, made with the project's key `siteKey` (the last part of
  /// `projects/P/keys/K`) for `action`.
  ///
  /// - Cancellation: cancelling the calling task should end the request; the call is then not
  ///   made.
  /// - Throws: any error; with `ENFORCE` the call is not made and fails with
  ///   ``AuthError/Code/appVerificationFailed``, with `AUDIT` it is made without a token.
  func token(for action: RecaptchaAction, siteKey: String) async throws -> String
}
