/// The fields of the hosted handler's answer to an app, as the callback URL's query carries them
/// (`…/__/auth/callback?authType=…&link=…&eventId=…`), and the field of
/// `SCHEME://firebaseauth/link` that carries that callback. `signin serve`'s handler page writes
/// them and the client (`OAuthProvider`, the reCAPTCHA flow) reads them, both from here.
///
/// - Concurrency: `Sendable` value.
package enum HandlerAnswerField: String, Sendable, CaseIterable {
  /// The flow answered: `signInWithRedirect`, or `verifyApp` for reCAPTCHA.
  case authType
  /// The URL the handler finished on, which the backend reads the provider's answer from.
  case link
  /// The event id the app sent, so it can tell its answer from another's.
  case eventID = "eventId"
  /// The token of a reCAPTCHA verification.
  case recaptchaToken
  /// The handler's refusal, as JSON (`{"code":…,"message":…}`).
  case firebaseError
  /// The field of `SCHEME://firebaseauth/link` that carries the callback URL.
  case deepLink = "deep_link_id"
}
