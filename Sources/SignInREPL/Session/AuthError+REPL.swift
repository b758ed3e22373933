import SignInKit

extension AuthError {
  static let noCurrentUserForREPL = AuthError(
    .noCurrentUser, "No user is signed in. Try 'signin EMAIL', 'signup EMAIL' or 'anonymous'.")
}
