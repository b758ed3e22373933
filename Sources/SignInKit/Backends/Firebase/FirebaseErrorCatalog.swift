import Foundation

/// What Firebase Auth's error messages mean: each `error.message` string of Identity Toolkit and
/// Secure Token (`CODE` or `CODE : detail`) mapped to an ``AuthError`` code and plain words that
/// say what to do. An unknown message keeps the server's text.
///
/// - Concurrency: stateless, any isolation.
enum FirebaseErrorCatalog {
  struct Meaning: Sendable {
    let code: AuthError.Code
    let message: String
  }

  static let meanings: [String: Meaning] = [
    "EMAIL_EXISTS": Meaning(
      .emailAlreadyInUse, "An account already uses this email. Sign in instead, or use another address."),
    "OPERATION_NOT_ALLOWED": Meaning(
      .operationNotAllowed, "This sign-in method is turned off for the project. Enable it in the Firebase console."),
    "PASSWORD_LOGIN_DISABLED": Meaning(
      .operationNotAllowed, "Email/password sign-in is turned off for the project. Enable it in the Firebase console."),
    "ADMIN_ONLY_OPERATION": Meaning(.operationNotAllowed, "Only an administrator may do this for the project."),
    "TOO_MANY_ATTEMPTS_TRY_LATER": Meaning(.tooManyRequests, "Too many attempts. Wait a while, then try again."),
    "INVALID_EMAIL": Meaning(.invalidEmail, "The email address is badly formatted."),
    "INVALID_IDENTIFIER": Meaning(.invalidEmail, "The email address is badly formatted."),
    "MISSING_EMAIL": Meaning(.invalidEmail, "Enter an email address."),
    "MISSING_PASSWORD": Meaning(.weakPassword, "Enter a password."),
    "WEAK_PASSWORD": Meaning(.weakPassword, "The password is too weak; use at least 6 characters."),
    "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": Meaning(
      .weakPassword, "The password does not meet the project's password policy."),
    "EMAIL_NOT_FOUND": Meaning(.userNotFound, "There is no account for that email. Check it, or sign up."),
    "USER_NOT_FOUND": Meaning(.userNotFound, "The account no longer exists."),
    "INVALID_PASSWORD": Meaning(.wrongPassword, "The password is wrong. Try again, or reset it."),
    "INVALID_LOGIN_CREDENTIALS": Meaning(
      .invalidCredential, "The email or the password is wrong. Try again, or reset the password."),
    "USER_DISABLED": Meaning(.userDisabled, "An administrator disabled this account."),
    "INVALID_IDP_RESPONSE": Meaning(
      .invalidCredential, "The identity provider's credential was refused. Sign in with the provider again."),
    "INVALID_PENDING_TOKEN": Meaning(
      .invalidCredential, "The pending credential is invalid or expired. Start the sign-in again."),
    "MISSING_OR_INVALID_NONCE": Meaning(
      .invalidCredential, "The sign-in nonce is missing or does not match. Start the sign-in again."),
    "INVALID_CUSTOM_TOKEN": Meaning(.invalidCustomToken, "The custom token is malformed or expired."),
    "MISSING_CUSTOM_TOKEN": Meaning(.invalidCustomToken, "The custom token is missing."),
    "CREDENTIAL_MISMATCH": Meaning(.customTokenMismatch, "The custom token belongs to another project."),
    "FORBIDDEN_CLAIM": Meaning(.invalidCustomToken, "The custom token uses a reserved claim name."),
    "INVALID_CREDENTIAL_OR_PROVIDER_ID": Meaning(.invalidCredential, "The credential or its provider id is invalid."),
    "MISSING_REQUEST_URI": Meaning(.misconfigured, "The sign-in request has no requestUri."),
    "INVALID_REQUEST_URI": Meaning(.misconfigured, "The sign-in request's requestUri is invalid."),
    "FEDERATED_USER_ID_ALREADY_LINKED": Meaning(
      .credentialAlreadyInUse, "This identity is already linked to another account. Sign in with it instead."),
    "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": Meaning(
      .requiresRecentLogin, "This needs a recent sign-in. Sign in again, then retry."),
    "INVALID_ID_TOKEN": Meaning(.sessionExpired, "The session is no longer valid. Sign in again."),
    "TOKEN_EXPIRED": Meaning(.sessionExpired, "The session has expired or was revoked. Sign in again."),
    "MISSING_ID_TOKEN": Meaning(.noCurrentUser, "No user is signed in. Sign in first, then try again."),
    "INVALID_REFRESH_TOKEN": Meaning(.invalidRefreshToken, "The saved session is no longer valid. Sign in again."),
    "MISSING_REFRESH_TOKEN": Meaning(.invalidRefreshToken, "The saved session has no refresh token. Sign in again."),
    "INVALID_GRANT_TYPE": Meaning(.internal, "The token refresh request was malformed; report this."),
    "EXPIRED_OOB_CODE": Meaning(.expiredActionCode, "The code has expired. Ask for a new one."),
    "INVALID_OOB_CODE": Meaning(.invalidActionCode, "The code is invalid or was already used. Ask for a new one."),
    "MISSING_OOB_CODE": Meaning(.invalidActionCode, "Enter the code from the email."),
    "INVALID_CONTINUE_URI": Meaning(.misconfigured, "The continue URL is invalid. Check the app's configuration."),
    "MISSING_CONTINUE_URI": Meaning(.misconfigured, "The request needs a continue URL. Check the app's configuration."),
    "INVALID_HOSTING_LINK_DOMAIN": Meaning(
      .misconfigured, "The link domain is not one of the project's. Check the app's ActionCodeSettings.linkDomain."),
    "UNAUTHORIZED_DOMAIN": Meaning(
      .misconfigured, "The continue URL's domain is not authorized. Add it in the Firebase console."),
    "INVALID_CODE": Meaning(
      .invalidVerificationCode, "The code is wrong or too old. Enter the code your authenticator app shows now."),
    "INVALID_PHONE_NUMBER": Meaning(
      .invalidCredential, "The phone number is not in E.164 form: + and the country code, then the digits."),
    "PHONE_NUMBER_EXISTS": Meaning(.credentialAlreadyInUse, "Another account already has this phone number."),
    "INVALID_SESSION_INFO": Meaning(
      .invalidVerificationCode, "The text-message code expired or was already used. Ask for a new code."),
    "MISSING_SESSION_INFO": Meaning(.invalidVerificationCode, "Ask for a text-message code first."),
    "MISSING_CODE": Meaning(.invalidVerificationCode, "Enter the code from the text message."),
    "UNVERIFIED_EMAIL": Meaning(.unverifiedEmail, "Verify the account's email before adding a second factor."),
    "MFA_ENROLLMENT_NOT_FOUND": Meaning(.noSuchProvider, "That second factor is not enrolled on this account."),
    "INVALID_MFA_PENDING_CREDENTIAL": Meaning(
      .invalidCredential, "The sign-in waited too long for its second factor. Sign in again."),
    "MISSING_MFA_PENDING_CREDENTIAL": Meaning(
      .invalidCredential, "The second step of the sign-in lost its first step. Sign in again."),
    "EMAIL_CHANGE_NEEDS_VERIFICATION": Meaning(
      .emailChangeNeedsVerification, "The new email must be verified first. Use the link sent to it."),
    "PERMISSION_DENIED": Meaning(
      .misconfigured, "The project refused the request. Check the API key and its app restrictions."),
  ]

  /// The error for a failed reply whose `error.message` is `serverMessage`, at HTTP `status`.
  static func error(serverMessage: String, status: Int, reason: String? = nil) -> AuthError {
    let (code, detail) = split(serverMessage)
    if let meaning = meanings[code] {
      let message = detail.map { "\(meaning.message) (\($0))" } ?? meaning.message
      return AuthError(meaning.code, message, serverMessage: serverMessage)
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
    if serverMessage.hasPrefix("Invalid JSON payload received") {
      return AuthError(
        .internal, "The server did not accept the request's fields; report this: \(serverMessage)",
        serverMessage: serverMessage)
    }
    let fallback: AuthError.Code =
      status >= 500 ? .unavailable : status == 403 || status == 401 ? .misconfigured : .internal
    return AuthError(fallback, "The server answered HTTP \(status): \(serverMessage)", serverMessage: serverMessage)
  }

  /// `CODE : detail` split at the first colon, both parts trimmed; no detail when there is none.
  static func split(_ message: String) -> (code: String, detail: String?) {
    guard let colon = message.firstIndex(of: ":") else {
      return (message.trimmingCharacters(in: .whitespaces), nil)
    }
    let detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    return (message[..<colon].trimmingCharacters(in: .whitespaces), detail.isEmpty ? nil : detail)
  }
}

extension FirebaseErrorCatalog.Meaning {
  init(_ code: AuthError.Code, _ message: String) {
    self.init(code: code, message: message)
  }
}
