import SignInKit

/// What a sign-in screen says when a call fails: what happened and what the person can do,
/// for every `AuthError` a sign-in meets; any other error says what its own message says.
///
/// - Concurrency: stateless.
enum SignInFlowMessages {
  static func message(for error: AuthError) -> String {
    switch error.code {
    case .wrongPassword, .invalidCredential: "The email or password is wrong. Try again, or reset your password."
    case .userNotFound: "No account uses this email. Check it, or create an account."
    case .emailAlreadyInUse: "An account already uses this email. Sign in instead, or reset its password."
    case .weakPassword: error.message
    case .invalidEmail: "That email address is not valid. Check it and try again."
    case .userDisabled: "This account is disabled. Contact the app's support."
    case .tooManyRequests: "Too many attempts. Wait a little, then try again."
    case .network, .timeout, .unavailable: "The server can't be reached. Check your connection and try again."
    case .invalidVerificationCode: "That code is wrong. Check it and try again."
    case .verificationExpired: "That code has expired. Go back and ask for a new one."
    case .invalidPhoneNumber: "That phone number is not valid. Check the country code and the number."
    case .quotaExceeded: "Too many codes were sent. Try again later, or sign in another way."
    case .operationNotAllowed: "This way of signing in is turned off for this app. Choose another."
    case .requiresRecentLogin: "For your security, sign in again first."
    case .accountExistsWithDifferentCredential:
      "An account already uses this email with another sign-in method. Sign in that way first."
    default: error.message
    }
  }
}
