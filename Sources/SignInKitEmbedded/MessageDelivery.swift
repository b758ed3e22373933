/// Where the codes the embedded backend sends go: action links by email, verification codes by
/// text message.
///
/// Either way, the records that check a code keep only digests: an action code by its SHA-256,
/// a texted code by an HMAC keyed with its `sessionInfo`, and every pending step (`sessionInfo`,
/// `mfaPendingCredential`, a passkey ceremony) under the SHA-256 of its key. Whether the
/// messages themselves are kept is this setting.
///
/// - Concurrency: `Sendable`. The handler is called on the backend's actor once the code is
///   committed, one message per call that sends one, and awaited before that call returns.
public enum MessageDelivery: Sendable {
  /// Kept in the data folder as a development outbox, each message while its code can be used
  /// and within ``EmbeddedBackend/Configuration-swift.struct/limits``: what
  /// ``EmbeddedBackend/mailbox(for:)``, ``EmbeddedBackend/verificationCodes()``, the REPL's
  /// `mailbox` and `texts` and `signin serve`'s `oobCodes` and `verificationCodes` endpoints
  /// read. The default, as in Firebase's emulator; the outbox holds live codes, so keep it off
  /// data that real people's accounts are in.
  case outbox
  /// Handed to `deliver` (the app's email or SMS service) and never stored, so nothing in the
  /// data folder can be read back as a code. When `deliver` throws, the code is withdrawn and
  /// the call that sent it fails with `AuthError.Code.internal`, saying what failed.
  case handler(@Sendable (OutgoingMessage) async throws -> Void)
}
