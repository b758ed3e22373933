/// What a screen should show about sign-in, at one moment.
///
/// Every subscriber of ``Auth/states`` sees the same sequence of these values, starting with the
/// current one.
///
/// - Concurrency: `Sendable` value.
public enum AuthState: Sendable, Equatable, CustomStringConvertible {
  /// Launch: the stored session has not been read yet. Never a false "signed out".
  case restoring
  /// No user, and why.
  case signedOut(SignOutReason)
  /// A sign-in with this provider is in flight: show a spinner.
  case signingIn(ProviderID)
  /// A user is signed in; the health says whether their tokens are current.
  case signedIn(User, SessionHealth)

  /// The signed-in user, if any.
  public var user: User? {
    if case .signedIn(let user, _) = self { return user }
    return nil
  }

  /// `true` for ``signedIn(_:_:)`` whatever the session's health.
  public var isSignedIn: Bool { user != nil }

  public var description: String {
    switch self {
    case .restoring: "restoring"
    case .signedOut(let reason): "signed out (\(reason))"
    case .signingIn(let provider): "signing in with \(provider)"
    case .signedIn(let user, let health): "signed in as \(user) (\(health))"
    }
  }
}
