/// Every error code Firebase Auth (Identity Toolkit, Secure Token, the Auth emulator) answers
/// with, spelled once: the server's own spelling is the raw value, ``status`` is the HTTP status
/// it comes with, and ``standardDetail`` the text Firebase writes after the code when it always
/// writes the same one.
///
/// A failure on the wire is the code, optionally ` : ` and a detail
/// (`WEAK_PASSWORD : Password should be at least 6 characters`): ``FirebaseFailure``.
/// `EmbeddedBackend` throws these codes, the emulator renders them, and `FirebaseBackend` maps
/// them to `AuthError` in one table; no other place spells one.
///
/// - Concurrency: `Sendable` value.
package enum FirebaseErrorCode: String, Sendable, CaseIterable, Codable {
  // MARK: Accounts and passwords
  case emailExists = "EMAIL_EXISTS"
  case emailNotFound = "EMAIL_NOT_FOUND"
  case invalidEmail = "INVALID_EMAIL"
  case missingEmail = "MISSING_EMAIL"
  case missingNewEmail = "MISSING_NEW_EMAIL"
  case invalidIdentifier = "INVALID_IDENTIFIER"
  case missingIdentifier = "MISSING_IDENTIFIER"
  case invalidPassword = "INVALID_PASSWORD"
  case missingPassword = "MISSING_PASSWORD"
  case weakPassword = "WEAK_PASSWORD"
  case passwordDoesNotMeetRequirements = "PASSWORD_DOES_NOT_MEET_REQUIREMENTS"
  case invalidLoginCredentials = "INVALID_LOGIN_CREDENTIALS"
  case userNotFound = "USER_NOT_FOUND"
  case userDisabled = "USER_DISABLED"
  case operationNotAllowed = "OPERATION_NOT_ALLOWED"
  case passwordLoginDisabled = "PASSWORD_LOGIN_DISABLED"
  case adminOnlyOperation = "ADMIN_ONLY_OPERATION"
  case projectDisabled = "PROJECT_DISABLED"
  case tooManyAttemptsTryLater = "TOO_MANY_ATTEMPTS_TRY_LATER"
  case emailChangeNeedsVerification = "EMAIL_CHANGE_NEEDS_VERIFICATION"
  case credentialTooOldLoginAgain = "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"

  // MARK: Tokens
  case invalidIdToken = "INVALID_ID_TOKEN"
  case missingIdToken = "MISSING_ID_TOKEN"
  case tokenExpired = "TOKEN_EXPIRED"
  case invalidRefreshToken = "INVALID_REFRESH_TOKEN"
  case missingRefreshToken = "MISSING_REFRESH_TOKEN"
  case invalidGrantType = "INVALID_GRANT_TYPE"
  case invalidCustomToken = "INVALID_CUSTOM_TOKEN"
  case missingCustomToken = "MISSING_CUSTOM_TOKEN"
  case credentialMismatch = "CREDENTIAL_MISMATCH"
  case forbiddenClaim = "FORBIDDEN_CLAIM"
  case invalidClaims = "INVALID_CLAIMS"
  case claimsTooLarge = "CLAIMS_TOO_LARGE"
  case invalidDuration = "INVALID_DURATION"
  case tenantIdMismatch = "TENANT_ID_MISMATCH"

  // MARK: Identity providers
  case invalidIdpResponse = "INVALID_IDP_RESPONSE"
  case invalidPendingToken = "INVALID_PENDING_TOKEN"
  case missingOrInvalidNonce = "MISSING_OR_INVALID_NONCE"
  case invalidCredentialOrProviderId = "INVALID_CREDENTIAL_OR_PROVIDER_ID"
  case federatedUserIdAlreadyLinked = "FEDERATED_USER_ID_ALREADY_LINKED"
  case missingRequestUri = "MISSING_REQUEST_URI"
  case invalidRequestUri = "INVALID_REQUEST_URI"
  case missingPostBody = "MISSING_POST_BODY"
  case invalidProviderId = "INVALID_PROVIDER_ID"
  case missingProviderId = "MISSING_PROVIDER_ID"
  case invalidTokenType = "INVALID_TOKEN_TYPE"
  case missingTokenType = "MISSING_TOKEN_TYPE"
  case missingToken = "MISSING_TOKEN"

  // MARK: Email action codes
  case invalidOobCode = "INVALID_OOB_CODE"
  case expiredOobCode = "EXPIRED_OOB_CODE"
  case missingOobCode = "MISSING_OOB_CODE"
  case invalidRequestType = "INVALID_REQ_TYPE"
  case missingRequestType = "MISSING_REQ_TYPE"
  case invalidContinueUri = "INVALID_CONTINUE_URI"
  case missingContinueUri = "MISSING_CONTINUE_URI"
  case unauthorizedDomain = "UNAUTHORIZED_DOMAIN"
  case invalidHostingLinkDomain = "INVALID_HOSTING_LINK_DOMAIN"

  // MARK: Phone numbers and second factors
  case invalidPhoneNumber = "INVALID_PHONE_NUMBER"
  case missingPhoneNumber = "MISSING_PHONE_NUMBER"
  case phoneNumberExists = "PHONE_NUMBER_EXISTS"
  case invalidCode = "INVALID_CODE"
  case missingCode = "MISSING_CODE"
  case invalidSessionInfo = "INVALID_SESSION_INFO"
  case missingSessionInfo = "MISSING_SESSION_INFO"
  case unverifiedEmail = "UNVERIFIED_EMAIL"
  case mfaEnrollmentNotFound = "MFA_ENROLLMENT_NOT_FOUND"
  case missingMfaEnrollmentId = "MISSING_MFA_ENROLLMENT_ID"
  case invalidMfaPendingCredential = "INVALID_MFA_PENDING_CREDENTIAL"
  case missingMfaPendingCredential = "MISSING_MFA_PENDING_CREDENTIAL"
  case secondFactorExists = "SECOND_FACTOR_EXISTS"
  case sessionExpired = "SESSION_EXPIRED"
  case invalidAppCredential = "INVALID_APP_CREDENTIAL"
  case missingAppCredential = "MISSING_APP_CREDENTIAL"
  case missingIosAppToken = "MISSING_IOS_APP_TOKEN"
  case captchaCheckFailed = "CAPTCHA_CHECK_FAILED"
  case invalidRecaptchaToken = "INVALID_RECAPTCHA_TOKEN"
  /// reCAPTCHA Enterprise is enforced for the call's provider and the body carries no token.
  case missingRecaptchaToken = "MISSING_RECAPTCHA_TOKEN"
  /// A reCAPTCHA token came without `recaptchaVersion`.
  case missingRecaptchaVersion = "MISSING_RECAPTCHA_VERSION"
  /// A reCAPTCHA token came without `clientType`.
  case missingClientType = "MISSING_CLIENT_TYPE"
  /// A passkey's registration or assertion that does not check out (Identity Platform's preview).
  case invalidAuthenticatorResponse = "INVALID_AUTHENTICATOR_RESPONSE"
  /// No such passkey on the account, or none for the credential a sign-in used.
  case passkeyEnrollmentNotFound = "PASSKEY_ENROLLMENT_NOT_FOUND"

  // MARK: Administration (the Admin SDKs' calls)
  case duplicateLocalId = "DUPLICATE_LOCAL_ID"
  case duplicateEmail = "DUPLICATE_EMAIL"
  case duplicateRawId = "DUPLICATE_RAW_ID"
  case invalidLocalId = "INVALID_LOCAL_ID"
  case missingLocalId = "MISSING_LOCAL_ID"
  case missingUserAccount = "MISSING_USER_ACCOUNT"
  case maximumUserCountExceeded = "MAXIMUM_USER_COUNT_EXCEEDED"
  case missingHashAlgorithm = "MISSING_HASH_ALGORITHM"
  case unsupportedHashAlgorithm = "UNSUPPORTED_HASH_ALGORITHM"
  case invalidPageSelection = "INVALID_PAGE_SELECTION"
  case invalidProjectId = "INVALID_PROJECT_ID"
  case invalidTenantId = "INVALID_TENANT_ID"
  case tenantNotFound = "TENANT_NOT_FOUND"
  case configurationNotFound = "CONFIGURATION_NOT_FOUND"
  case duplicateIdpConfig = "DUPLICATE_IDP_CONFIG"

  // MARK: Google's canonical errors
  case invalidArgument = "INVALID_ARGUMENT"
  case permissionDenied = "PERMISSION_DENIED"
  case unauthenticated = "UNAUTHENTICATED"
  case notFound = "NOT_FOUND"
  case methodNotAllowed = "METHOD_NOT_ALLOWED"
  case quotaExceeded = "QUOTA_EXCEEDED"
  case payloadTooLarge = "PAYLOAD_TOO_LARGE"
  case deadlineExceeded = "DEADLINE_EXCEEDED"
  case notImplemented = "NOT_IMPLEMENTED"
  case internalError = "INTERNAL_ERROR"
  case unavailable = "UNAVAILABLE"

  /// The HTTP status Firebase answers this code with.
  package var status: Int {
    switch self {
    case .unauthenticated: 401
    case .permissionDenied: 403
    case .notFound, .configurationNotFound: 404
    case .methodNotAllowed: 405
    case .deadlineExceeded: 408
    case .payloadTooLarge: 413
    case .internalError: 500
    case .notImplemented: 501
    case .unavailable: 503
    default: 400
    }
  }

  /// Google's status name, sent beside codes other than a plain 400 (`PERMISSION_DENIED`).
  package var statusName: String? {
    switch status {
    case 401: FirebaseErrorCode.unauthenticated.rawValue
    case 403: FirebaseErrorCode.permissionDenied.rawValue
    case 404: FirebaseErrorCode.notFound.rawValue
    default: nil
    }
  }

  /// The detail Firebase always writes after this code, or `nil` when it writes none or one
  /// that depends on the call.
  package var standardDetail: String? {
    switch self {
    case .weakPassword: "Password should be at least 6 characters"
    case .invalidPhoneNumber: "Invalid format."
    case .invalidRequestType: "Unsupported request parameters."
    case .unverifiedEmail: "Need to verify email first before enrolling second factors."
    case .secondFactorExists: "Phone number already enrolled as second factor for this account."
    default: nil
    }
  }
}
