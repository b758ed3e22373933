/// The reply of a ``PasskeyRequest``.
///
/// - Concurrency: `Sendable` value.
public enum PasskeyResponse: Sendable, Equatable {
  /// `passkeyEnrollment:start`: what the authenticator is asked to make. Its user name and
  /// display name are empty: `Auth` fills them from the signed-in user.
  case creationOptions(PasskeyRegistrationRequest)
  /// `passkeySignIn:start`: what the authenticator is asked to sign.
  case requestOptions(PasskeyAssertionRequest)
  /// The finishing calls: tokens for the user `uid`.
  case tokens(IssuedTokens, uid: String)
}
