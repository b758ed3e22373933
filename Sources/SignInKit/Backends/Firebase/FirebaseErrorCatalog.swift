import Foundation
import SignInWire

/// What Firebase Auth's error codes mean to an app: each ``FirebaseErrorCode`` mapped to an
/// ``AuthError`` code and plain words that say what to do, in one exhaustive table, so a code
/// added to the wire vocabulary does not compile until it has a meaning here. Messages that are
/// not a Firebase code (an API key refused, a proxy's page) keep the server's text.
///
/// - Concurrency: stateless, any isolation.
enum FirebaseErrorCatalog {
  /// An error code's meaning: what ``AuthError`` reports, and the words a user reads.
  struct Meaning: Sendable {
    let code: AuthError.Code
    let message: String

    init(_ code: AuthError.Code, _ message: String) {
      self.code = code
      self.message = message
    }
  }

  // swift-format-ignore
  /// The meaning of `code`.
  static func meaning(of code: FirebaseErrorCode) -> Meaning {
    switch code {
    case .emailExists, .duplicateEmail:
      Meaning(.emailAlreadyInUse, "An account already uses this email. Sign in instead, or use another address.")
    case .operationNotAllowed:
      Meaning(.operationNotAllowed, "This sign-in method is turned off for the project. Enable it in the Firebase console.")
    case .passwordLoginDisabled:
      Meaning(.operationNotAllowed, "Email/password sign-in is turned off for the project. Enable it in the Firebase console.")
    case .adminOnlyOperation: Meaning(.operationNotAllowed, "Only an administrator may do this for the project.")
    case .projectDisabled: Meaning(.operationNotAllowed, "Sign-in is turned off for this project or tenant.")
    case .tooManyAttemptsTryLater: Meaning(.tooManyRequests, "Too many attempts. Wait a while, then try again.")
    case .quotaExceeded: Meaning(.quotaExceeded, "The project's quota for this is used up. Try again later.")
    case .invalidEmail, .invalidIdentifier: Meaning(.invalidEmail, "The email address is badly formatted.")
    case .missingEmail, .missingIdentifier: Meaning(.invalidEmail, "Enter an email address.")
    case .missingNewEmail: Meaning(.invalidEmail, "Enter the new email address.")
    case .missingPassword: Meaning(.weakPassword, "Enter a password.")
    case .weakPassword: Meaning(.weakPassword, "The password is too weak; use at least 6 characters.")
    case .passwordDoesNotMeetRequirements:
      Meaning(.weakPassword, "The password does not meet the project's password policy.")
    case .emailNotFound: Meaning(.userNotFound, "There is no account for that email. Check it, or sign up.")
    case .userNotFound: Meaning(.userNotFound, "The account no longer exists.")
    case .invalidPassword: Meaning(.wrongPassword, "The password is wrong. Try again, or reset it.")
    case .invalidLoginCredentials:
      Meaning(.invalidCredential, "The email or the password is wrong. Try again, or reset the password.")
    case .userDisabled: Meaning(.userDisabled, "An administrator disabled this account.")
    case .invalidIdpResponse:
      Meaning(.invalidCredential, "The identity provider's credential was refused. Sign in with the provider again.")
    case .invalidPendingToken:
      Meaning(.invalidCredential, "The pending credential is invalid or expired. Start the sign-in again.")
    case .missingOrInvalidNonce:
      Meaning(.invalidCredential, "The sign-in nonce is missing or does not match. Start the sign-in again.")
    case .invalidCustomToken: Meaning(.invalidCustomToken, "The custom token is malformed or expired.")
    case .missingCustomToken: Meaning(.invalidCustomToken, "The custom token is missing.")
    case .credentialMismatch: Meaning(.customTokenMismatch, "The custom token belongs to another project.")
    case .forbiddenClaim: Meaning(.invalidCustomToken, "The custom token uses a reserved claim name.")
    case .invalidClaims: Meaning(.invalidCustomToken, "The custom claims are not a JSON object.")
    case .claimsTooLarge: Meaning(.invalidCustomToken, "The custom claims are too large.")
    case .invalidCredentialOrProviderId: Meaning(.invalidCredential, "The credential or its provider id is invalid.")
    case .missingRequestUri: Meaning(.misconfigured, "The sign-in request has no requestUri.")
    case .invalidRequestUri: Meaning(.misconfigured, "The sign-in request's requestUri is invalid.")
    case .missingPostBody: Meaning(.invalidCredential, "The sign-in request carries no credential.")
    case .invalidProviderId, .missingProviderId:
      Meaning(.invalidCredential, "The identity provider's id is missing or unknown.")
    case .invalidTokenType, .missingTokenType, .missingToken:
      Meaning(.invalidCredential, "The token to revoke is missing or of an unknown type.")
    case .federatedUserIdAlreadyLinked:
      Meaning(.credentialAlreadyInUse, "This identity is already linked to another account. Sign in with it instead.")
    case .credentialTooOldLoginAgain: Meaning(.requiresRecentLogin, "This needs a recent sign-in. Sign in again, then retry.")
    case .invalidIdToken: Meaning(.sessionExpired, "The session is no longer valid. Sign in again.")
    case .tokenExpired: Meaning(.sessionExpired, "The session has expired or was revoked. Sign in again.")
    case .tenantIdMismatch: Meaning(.tenantMismatch, "The session belongs to another tenant. Sign in again.")
    case .missingIdToken: Meaning(.noCurrentUser, "No user is signed in. Sign in first, then try again.")
    case .invalidRefreshToken: Meaning(.invalidRefreshToken, "The saved session is no longer valid. Sign in again.")
    case .missingRefreshToken: Meaning(.invalidRefreshToken, "The saved session has no refresh token. Sign in again.")
    case .invalidGrantType: Meaning(.internal, "The token refresh request was malformed; report this.")
    case .invalidDuration: Meaning(.internal, "The requested duration is out of range; report this.")
    case .expiredOobCode: Meaning(.expiredActionCode, "The code has expired. Ask for a new one.")
    case .invalidOobCode: Meaning(.invalidActionCode, "The code is invalid or was already used. Ask for a new one.")
    case .missingOobCode: Meaning(.invalidActionCode, "Enter the code from the email.")
    case .invalidRequestType, .missingRequestType: Meaning(.internal, "The email request was malformed; report this.")
    case .invalidContinueUri: Meaning(.misconfigured, "The continue URL is invalid. Check the app's configuration.")
    case .missingContinueUri: Meaning(.misconfigured, "The request needs a continue URL. Check the app's configuration.")
    case .invalidHostingLinkDomain:
      Meaning(.misconfigured, "The link domain is not one of the project's. Check the app's ActionCodeSettings.linkDomain.")
    case .unauthorizedDomain:
      Meaning(.misconfigured, "The continue URL's domain is not authorized. Add it in the Firebase console.")
    case .invalidCode:
      Meaning(.invalidVerificationCode, "The code is wrong or too old. Enter the code your authenticator app shows now.")
    case .invalidPhoneNumber:
      Meaning(.invalidPhoneNumber, "The phone number is not in E.164 form: + and the country code, then the digits.")
    case .missingPhoneNumber: Meaning(.invalidPhoneNumber, "Enter a phone number.")
    case .phoneNumberExists: Meaning(.credentialAlreadyInUse, "Another account already has this phone number.")
    case .invalidSessionInfo, .sessionExpired:
      Meaning(.verificationExpired, "The text-message code expired or was already used. Ask for a new code.")
    case .missingSessionInfo: Meaning(.verificationExpired, "Ask for a text-message code first.")
    case .invalidAppCredential, .missingAppCredential, .missingIosAppToken:
      Meaning(
        .appVerificationFailed,
        "The app could not prove itself to send a text message. Check push notifications, or try again for "
          + "reCAPTCHA.")
    case .captchaCheckFailed, .invalidRecaptchaToken:
      Meaning(.appVerificationFailed, "The reCAPTCHA check failed. Try again.")
    case .missingRecaptchaToken:
      Meaning(
        .recaptchaRequired,
        "The project requires reCAPTCHA Enterprise for this call, and no token came with it: give the backend a "
          + "RecaptchaTokenProvider (FirebaseBackend.recaptcha) over Google's reCAPTCHA Enterprise SDK. Nothing was "
          + "sent.")
    case .missingRecaptchaVersion, .missingClientType:
      Meaning(.internal, "The reCAPTCHA token came without its version or client type; report this.")
    case .invalidAuthenticatorResponse:
      Meaning(.passkeyRefused, "The passkey's answer did not check out. Try again, or sign in another way.")
    case .passkeyEnrollmentNotFound:
      Meaning(.noPasskey, "No such passkey is enrolled on the account. Enrol one, or sign in another way.")
    case .missingCode: Meaning(.invalidVerificationCode, "Enter the code from the text message.")
    case .unverifiedEmail: Meaning(.unverifiedEmail, "Verify the account's email before adding a second factor.")
    case .mfaEnrollmentNotFound, .missingMfaEnrollmentId:
      Meaning(.noSuchProvider, "That second factor is not enrolled on this account.")
    case .secondFactorExists: Meaning(.credentialAlreadyInUse, "This second factor is already enrolled on the account.")
    case .invalidMfaPendingCredential:
      Meaning(.invalidCredential, "The sign-in waited too long for its second factor. Sign in again.")
    case .missingMfaPendingCredential:
      Meaning(.invalidCredential, "The second step of the sign-in lost its first step. Sign in again.")
    case .emailChangeNeedsVerification:
      Meaning(.emailChangeNeedsVerification, "The new email must be verified first. Use the link sent to it.")
    case .permissionDenied:
      Meaning(.misconfigured, "The project refused the request. Check the API key and its app restrictions.")
    case .unauthenticated: Meaning(.misconfigured, "The request needs an administrator's credential.")
    case .duplicateLocalId, .duplicateRawId, .invalidLocalId, .missingLocalId, .missingUserAccount,
      .maximumUserCountExceeded, .missingHashAlgorithm, .unsupportedHashAlgorithm, .invalidPageSelection,
      .invalidProjectId, .invalidTenantId, .duplicateIdpConfig:
      Meaning(.invalidResponse, "The server refused an administrator's request.")
    case .tenantNotFound: Meaning(.misconfigured, "The tenant does not exist. Check Auth's tenant id.")
    case .configurationNotFound: Meaning(.noSuchProvider, "The provider's configuration does not exist.")
    case .invalidArgument: Meaning(.internal, "The server did not accept the request; report this.")
    case .notFound, .methodNotAllowed, .notImplemented:
      Meaning(.misconfigured, "The server does not offer this call. Check the backend's address.")
    case .payloadTooLarge: Meaning(.internal, "The request was too large for the server; report this.")
    case .deadlineExceeded: Meaning(.timeout, "The server gave up waiting for the request. Try again.")
    case .internalError: Meaning(.internal, "The server failed. Try again; report it if it persists.")
    case .unavailable: Meaning(.unavailable, "The server is unavailable. Try again later.")
    }
  }

  /// The error for a failed reply whose `error.message` is `serverMessage`, at HTTP `status`.
  static func error(serverMessage: String, status: Int, reason: String? = nil) -> AuthError {
    if let failure = FirebaseFailure(message: serverMessage) {
      return AuthError(failure)
    }
    if serverMessage.hasPrefix("API key not valid") || reason?.hasPrefix("keyInvalid") == true {
      return AuthError(
        .misconfigured, "The API key is not valid. Copy it again from the Firebase console.",
        serverMessage: serverMessage)
    }
    if reason == "ipRefererBlocked" || serverMessage.contains("API_KEY_IOS_APP_BLOCKED")
      || serverMessage.hasPrefix("Requests from this")
    {
      return AuthError(
        .misconfigured,
        "The API key does not allow requests from this app. Set the bundle id, or relax the key's restrictions.",
        serverMessage: serverMessage)
    }
    if serverMessage == FirebaseFailure.appCheckRefused.message {
      return AuthError(
        .appCheckFailed,
        "The project enforces App Check and refused this app's token. Check the App Check provider (a debug "
          + "provider needs its token registered in the console).",
        serverMessage: serverMessage)
    }
    if serverMessage.hasPrefix("Invalid JSON payload received") {
      return AuthError(
        .internal, "The server did not accept the request's fields; report this: \(serverMessage)",
        serverMessage: serverMessage)
    }
    let fallback: AuthError.Code =
      status >= 500 ? .unavailable : status == 403 || status == 401 ? .misconfigured : .internal
    return AuthError(fallback, "The server answered HTTP \(status): \(serverMessage)", serverMessage: serverMessage)
  }
}

extension AuthError {
  /// The error `failure` stands for, through ``FirebaseErrorCatalog``: its code's meaning, the
  /// detail in parentheses when there is one, and the failure kept for whoever renders it on the
  /// wire again (the emulator).
  package init(_ failure: FirebaseFailure, message: String? = nil) {
    let meaning = FirebaseErrorCatalog.meaning(of: failure.code)
    let words = message ?? failure.detail.map { "\(meaning.message) (\($0))" } ?? meaning.message
    self.init(meaning.code, words, serverMessage: failure.message)
    firebaseFailure = failure
  }

  /// An error with Firebase's `code` and `detail`; `message`, when given, replaces the table's
  /// words with ones about this call.
  package init(firebase code: FirebaseErrorCode, _ detail: String? = nil, message: String? = nil) {
    self.init(FirebaseFailure(code, detail), message: message)
  }
}
