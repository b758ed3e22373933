/// How an app proves itself before Firebase texts a code (FirebaseAuth's app verification):
/// ``SilentPushAppVerifier`` (an APNs silent push, falling back to reCAPTCHA) or
/// ``RecaptchaAppVerifier`` (the project's hosted reCAPTCHA page in the system web sheet).
/// ``FirebaseBackend`` asks its ``FirebaseBackend/appVerifier`` before every
/// `sendVerificationCode` and SMS second-factor start in production; the Auth emulator, and
/// Firebase's fictional test numbers with no verifier set, need none.
///
/// - Concurrency: `Sendable`; called from any isolation.
public protocol PhoneAppVerifier: Sendable {
  /// A proof for `backend`'s project.
  ///
  /// - Cancellation: cancelling the calling task stops waiting (for the push, or the sheet).
  /// - Throws: ``AuthError/Code/appVerificationFailed`` when no proof could be had,
  ///   ``AuthError/Code/userCancelled`` when the person closed the reCAPTCHA sheet.
  func proof(for backend: FirebaseBackend) async throws -> AppVerificationProof
}
