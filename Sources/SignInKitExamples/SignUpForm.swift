import Observation
import SignInKit

// snippet.begin sign-up-form
/// An email sign-up form. It is `@MainActor` because a view reads it, not because `Auth`
/// calls back on a background thread: `Auth` runs on its own actor, and the `await` comes
/// back here.
@MainActor @Observable public final class SignUpForm {
  public var email = ""
  public var password = ""
  public private(set) var message: String?
  public private(set) var isSubmitting = false
  @ObservationIgnored private let auth: Auth

  public init(auth: Auth) { self.auth = auth }

  public func submit() async {
    isSubmitting = true
    defer { isSubmitting = false }
    do {
      let result = try await auth.signUp(email: email, password: password)
      message = "Welcome, \(result.user.email ?? "")!"
    } catch let error as AuthError {
      message = error.message
    } catch {
      message = "Something went wrong; try again."
    }
  }
}
// snippet.end
