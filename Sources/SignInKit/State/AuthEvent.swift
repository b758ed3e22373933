/// Something that happened to the session. Unlike ``AuthState`` these are not replayed.
///
/// - Concurrency: `Sendable` value.
public enum AuthEvent: Sendable, Equatable, CustomStringConvertible {
  /// ``Auth/restorePreviousSignIn()`` settled on this state.
  case initialState(AuthState)
  /// A sign-in committed (it is already persisted).
  case signedIn(User, isNewUser: Bool)
  /// The session ended, and why.
  case signedOut(SignOutReason)
  /// The ID token was replaced by a refresh.
  case tokenRefreshed
  /// The user's profile, email, password, providers or verification changed.
  case userUpdated(User)
  /// An operation failed. The state went back to what it was. (Boxed, so the events of every
  /// other change stay small to copy.)
  indirect case failed(AuthError)

  public var description: String {
    switch self {
    case .initialState(let state): "initial state: \(state)"
    case .signedIn(let user, let isNewUser): "signed in as \(user)\(isNewUser ? " (new user)" : "")"
    case .signedOut(let reason): "signed out: \(reason)"
    case .tokenRefreshed: "token refreshed"
    case .userUpdated(let user): "user updated: \(user)"
    case .failed(let error): "failed: \(error)"
    }
  }
}
