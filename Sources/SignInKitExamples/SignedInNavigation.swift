import SignInKit

// snippet.begin signed-in-navigation
/// The screens a signed-in or signed-out user sees.
public enum Screen: Equatable, Sendable {
  case signIn
  case home(uid: String)
}

/// Moves the UI when who is signed in changes, where the blog-post version posted a
/// `Notification` after sign-in and every screen observed it. `users` sends only when the
/// identity or its profile changes (not on every token refresh), in order, and ends when `Auth`
/// shuts down.
@MainActor public func followSignedInUser(_ auth: Auth, show: (Screen) -> Void) async {
  for await user in auth.users {
    show(user.map { .home(uid: $0.uid) } ?? .signIn)
  }
}
// snippet.end
