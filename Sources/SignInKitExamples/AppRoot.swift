import SignInKit

// snippet.begin app-root
/// The app's root state. `AuthViewModel` replaces the hand-written `@Published signState`, and
/// one restore in the root view's task replaces `hasPreviousSignIn` / `restorePreviousSignIn`
/// called from `onAppear`.
@MainActor public final class AppRoot {
  public let model: AuthViewModel
  private let auth: Auth

  public init(auth: Auth) {
    self.auth = auth
    model = AuthViewModel(auth: auth)
  }

  /// What the root view's `.task` runs; it ends when the view goes away or `Auth` shuts down.
  public func run() async {
    async let following: Void = model.follow()
    // The launch state settles either way: signed in (fresh, or stale when offline) or signed
    // out; the model shows `.restoring` until then.
    _ = try? await auth.restorePreviousSignIn()
    await following
  }
}
// snippet.end
