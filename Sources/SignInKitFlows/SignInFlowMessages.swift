import SignInKit

/// What a sign-in or account screen says when a call fails: what happened and what the person
/// can do, in their language, for every `AuthError` a sign-in meets. Any other error says
/// "Something went wrong", as its own message is written for developers.
///
/// - Concurrency: stateless.
enum SignInFlowMessages {
  static func message(for error: AuthError, in strings: FlowStrings) -> String {
    strings(text(for: error.code))
  }

  static func text(for code: AuthError.Code) -> FlowText {
    switch code {
    case .wrongPassword, .invalidCredential: .wrongPassword
    case .userNotFound: .userNotFound
    case .emailAlreadyInUse: .emailAlreadyInUse
    case .weakPassword: .weakPassword
    case .invalidEmail: .invalidEmail
    case .userDisabled: .userDisabled
    case .tooManyRequests: .tooManyRequests
    case .network, .timeout, .unavailable: .network
    case .invalidVerificationCode: .invalidVerificationCode
    case .verificationExpired: .verificationExpired
    case .invalidPhoneNumber: .invalidPhoneNumber
    case .quotaExceeded: .quotaExceeded
    case .operationNotAllowed: .operationNotAllowed
    case .requiresRecentLogin: .requiresRecentLogin
    case .accountExistsWithDifferentCredential: .accountExistsWithDifferentCredential
    case .credentialAlreadyInUse: .credentialAlreadyInUse
    default: .somethingWentWrong
    }
  }
}
