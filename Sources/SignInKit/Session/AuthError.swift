import Foundation
import SignInFoundation
import SignInWire

/// The one error type SignInKit throws: a stable ``code``, a human ``message`` that says what to do,
/// and, when a server answered, its raw ``serverMessage``.
///
/// Messages never contain a password or a token.
///
/// ```swift
/// do { try await auth.signIn(email: email, password: password) }
/// catch let error as AuthError where error.code == .wrongPassword { showRetry(error.message) }
/// ```
///
/// - Concurrency: `Sendable` value.
public struct AuthError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
  /// A stable error code. New codes may be added; switch with a `default`.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let emailAlreadyInUse = Code(rawValue: "email-already-in-use")
    public static let wrongPassword = Code(rawValue: "wrong-password")
    public static let userNotFound = Code(rawValue: "user-not-found")
    public static let invalidCredential = Code(rawValue: "invalid-credential")
    public static let weakPassword = Code(rawValue: "weak-password")
    public static let invalidEmail = Code(rawValue: "invalid-email")
    public static let userDisabled = Code(rawValue: "user-disabled")
    public static let tooManyRequests = Code(rawValue: "too-many-requests")
    public static let requiresRecentLogin = Code(rawValue: "requires-recent-login")
    public static let accountExistsWithDifferentCredential = Code(
      rawValue: "account-exists-with-different-credential")
    public static let credentialAlreadyInUse = Code(rawValue: "credential-already-in-use")
    /// The ID token was revoked or expired on the server (`TOKEN_EXPIRED`, `INVALID_ID_TOKEN`).
    public static let sessionExpired = Code(rawValue: "session-expired")
    /// The refresh token is unknown or revoked (`INVALID_REFRESH_TOKEN`).
    public static let invalidRefreshToken = Code(rawValue: "invalid-refresh-token")
    public static let invalidActionCode = Code(rawValue: "invalid-action-code")
    public static let expiredActionCode = Code(rawValue: "expired-action-code")
    public static let operationNotAllowed = Code(rawValue: "operation-not-allowed")
    /// The project requires the new email to be verified before it replaces the old one.
    public static let emailChangeNeedsVerification = Code(rawValue: "email-change-needs-verification")
    /// The server's reply could not be understood (malformed, truncated, or not JSON).
    public static let invalidResponse = Code(rawValue: "invalid-response")
    /// The operation needs a signed-in user and there is none.
    public static let noCurrentUser = Code(rawValue: "no-current-user")
    /// Reauthentication signed in a different account than the current one.
    public static let userMismatch = Code(rawValue: "user-mismatch")
    /// The provider is not linked to this user.
    public static let noSuchProvider = Code(rawValue: "no-such-provider")
    public static let network = Code(rawValue: "network")
    public static let timeout = Code(rawValue: "timeout")
    /// The server answered 5xx or is temporarily unavailable.
    public static let unavailable = Code(rawValue: "unavailable")
    /// The calling task was cancelled; the state went back to what it was.
    public static let cancelled = Code(rawValue: "cancelled")
    /// A newer sign-in or sign-out started while this call ran, and won: its result was
    /// discarded and the newer operation owns the state ("last started wins").
    public static let superseded = Code(rawValue: "superseded")
    /// The person stopped the sign-in: closed the browser or sheet, denied consent at the
    /// identity provider, dismissed Sign in with Apple, or gave no answer at a prompt.
    public static let userCancelled = Code(rawValue: "user-cancelled")
    /// The custom token is malformed, expired, not signed by a trusted service account, or uses
    /// a reserved claim (`INVALID_CUSTOM_TOKEN`, `FORBIDDEN_CLAIM`).
    public static let invalidCustomToken = Code(rawValue: "invalid-custom-token")
    /// The custom token was minted for another project (`CREDENTIAL_MISMATCH`).
    public static let customTokenMismatch = Code(rawValue: "custom-token-mismatch")
    /// The account has a second factor: the sign-in waits for it. The error's
    /// ``AuthError/secondFactor`` says which factors, for ``Auth/resolveSignIn(_:enrollmentID:code:)``.
    public static let secondFactorRequired = Code(rawValue: "second-factor-required")
    /// The one-time code from the authenticator app is wrong or too old (`INVALID_CODE`).
    public static let invalidVerificationCode = Code(rawValue: "invalid-verification-code")
    /// Enrolling a second factor needs a verified email first (`UNVERIFIED_EMAIL`).
    public static let unverifiedEmail = Code(rawValue: "unverified-email")
    /// The phone number is not in E.164 form: `+`, the country code, then the number
    /// (`INVALID_PHONE_NUMBER`). Checked before any request is sent.
    public static let invalidPhoneNumber = Code(rawValue: "invalid-phone-number")
    /// The texted code's session expired or was used: ask for a new code (`SESSION_EXPIRED`,
    /// `INVALID_SESSION_INFO`).
    public static let verificationExpired = Code(rawValue: "verification-expired")
    /// The project's quota of text messages is used up for now (`QUOTA_EXCEEDED`).
    public static let quotaExceeded = Code(rawValue: "quota-exceeded")
    /// The app could not prove itself before a code was texted: no silent push and no
    /// reCAPTCHA, or the server refused what it sent (`INVALID_APP_CREDENTIAL`,
    /// `CAPTCHA_CHECK_FAILED`).
    public static let appVerificationFailed = Code(rawValue: "app-verification-failed")
    /// The project protects this call with reCAPTCHA Enterprise and no token came with it
    /// (`MISSING_RECAPTCHA_TOKEN`): give the backend a ``RecaptchaTokenProvider``
    /// (``FirebaseBackend/recaptcha``). Nothing was sent or texted.
    public static let recaptchaRequired = Code(rawValue: "recaptcha-required")
    /// The project enforces App Check and refused this app's token, or none was sent.
    public static let appCheckFailed = Code(rawValue: "app-check-failed")
    /// The account already has a credential of this kind (a phone number): replace it instead
    /// (``Auth/updatePhoneNumber(with:code:)``), or unlink it first.
    public static let providerAlreadyLinked = Code(rawValue: "provider-already-linked")
    /// A token or stored session belongs to another tenant than this `Auth`'s
    /// (`TENANT_ID_MISMATCH`).
    public static let tenantMismatch = Code(rawValue: "tenant-mismatch")
    /// No passkey for this account (or for the relying party) is enrolled, or on this device
    /// (`PASSKEY_ENROLLMENT_NOT_FOUND`): enrol one, or sign in another way.
    public static let noPasskey = Code(rawValue: "no-passkey")
    /// The passkey was made for another relying party or origin, or the app may not use the
    /// backend's relying party id: list it under `webcredentials:` in the app's associated
    /// domains, and serve the site's `apple-app-site-association`.
    public static let relyingPartyMismatch = Code(rawValue: "relying-party-mismatch")
    /// The authenticator refused or failed, or the backend refused its answer
    /// (`INVALID_AUTHENTICATOR_RESPONSE`: a signature that does not verify, a counter that went
    /// backwards, a challenge used before); the message says which.
    public static let passkeyRefused = Code(rawValue: "passkey-refused")
    public static let storage = Code(rawValue: "storage")
    public static let misconfigured = Code(rawValue: "misconfigured")
    public static let `internal` = Code(rawValue: "internal")

    /// Whether the call stopped without failing: ``cancelled``, ``superseded`` or
    /// ``userCancelled``. `Auth` reports none of them as an ``AuthEvent/failed(_:)`` event or an
    /// error message: nothing went wrong that a screen should show.
    public var isCancellation: Bool { self == .cancelled || self == .superseded || self == .userCancelled }

    /// Transient failures may succeed if retried later: the session is kept (as
    /// ``SessionHealth/stale``) and a retry is scheduled.
    public var isTransient: Bool {
      self == .network || self == .timeout || self == .unavailable || self == .tooManyRequests
    }

    /// Terminal failures of a token operation end the session: the user is signed out with the
    /// matching ``SignOutReason`` and the store is cleared.
    public var endsSession: Bool {
      self == .invalidRefreshToken || self == .sessionExpired || self == .userNotFound
        || self == .userDisabled || self == .tenantMismatch
    }

    /// The sign-out reason a terminal token failure gives.
    var signOutReason: SignOutReason {
      switch self {
      case .userNotFound: .userDeleted
      case .userDisabled: .userDisabled
      default: .refreshRejected(self)
      }
    }
  }

  public var code: Code
  /// What happened and what to do, in plain words.
  public var message: String
  /// The backend's own message (`WEAK_PASSWORD : Password should be at least 6 characters`).
  public var serverMessage: String?
  /// With ``Code/secondFactorRequired``: the factors to choose from and the pending sign-in.
  public var secondFactor: SecondFactorChallenge?
  /// With a linking or sign-in conflict (``Code/credentialAlreadyInUse``,
  /// ``Code/accountExistsWithDifferentCredential``, ``Code/emailAlreadyInUse``): the email of
  /// the account the credential or address belongs to, when the backend or the credential says
  /// it (FirebaseAuth's `AuthErrorUserInfoEmailKey`).
  public var email: String?
  /// With a conflict of a provider's credential: the credential again, as the backend returned
  /// it (FirebaseAuth's `AuthErrorUserInfoUpdatedCredentialKey`), so the app need not show the
  /// provider's sheet twice. After ``Code/credentialAlreadyInUse`` it signs in to the account
  /// that has it (``Auth/signIn(with:)-(ProviderCredential)``; the recipe is
  /// ``Auth/upgradeAnonymousUser(with:handOver:)-(SignInProvider,_)``); after
  /// ``Code/accountExistsWithDifferentCredential``, sign in with the account's own method, then
  /// link it (``Auth/link(with:)-(ProviderCredential)``).
  public var updatedCredential: ProviderCredential?
  /// With ``Code/tooManyRequests``: when trying again may succeed, when the backend said
  /// (`Retry-After` over HTTP, the embedded backend's throttle window). A screen can count down
  /// to it instead of guessing.
  public var retryAfter: Date?
  /// The Firebase failure this error stands for, when a Firebase server or the embedded backend
  /// answered one: what the emulator sends on the wire again.
  package var firebaseFailure: FirebaseFailure?

  /// Messages often quote a server or a redirect (`error_description`, Firebase's message), so
  /// both texts are stripped of control characters here, once for every error: printed to a
  /// terminal or a log, an error can only say things, never steer the terminal.
  public init(_ code: Code, _ message: String, serverMessage: String? = nil) {
    self.code = code
    self.message = message.removingControlCharacters()
    self.serverMessage = serverMessage?.removingControlCharacters()
  }

  /// A sign-in that waits for one of `challenge`'s second factors.
  public static func secondFactorRequired(_ challenge: SecondFactorChallenge) -> AuthError {
    var error = AuthError(
      .secondFactorRequired,
      "This account has a second factor: enter the code from your authenticator app to finish signing in.",
      serverMessage: "mfaPendingCredential")
    error.secondFactor = challenge
    return error
  }

  /// Whether this is a conflict with another account: the credential or email is already that
  /// account's (``Code/credentialAlreadyInUse``, ``Code/accountExistsWithDifferentCredential``,
  /// ``Code/emailAlreadyInUse``).
  public var isAccountConflict: Bool {
    code == .credentialAlreadyInUse || code == .accountExistsWithDifferentCredential || code == .emailAlreadyInUse
  }

  /// This error with the conflict's `email` and `credential` filled in where it had none.
  func withConflict(email: String?, credential: ProviderCredential?) -> AuthError {
    guard isAccountConflict else { return self }
    var error = self
    error.email = error.email ?? email
    error.updatedCredential = error.updatedCredential ?? credential
    return error
  }

  /// `true` when a retry later may succeed; see ``Code/isTransient``.
  public var isTransient: Bool { code.isTransient }

  public var description: String { "\(code): \(message)" }
  public var errorDescription: String? { message }

  /// The caller's task was cancelled; the state went back to what it was.
  static let cancelled = AuthError(.cancelled, "The operation was cancelled; nothing changed.")

  /// The stored session was removed or replaced by another process, so this one signed out.
  static let clearedElsewhere = AuthError(
    .noCurrentUser,
    "You were signed out: the saved session was removed elsewhere (another process signed out "
      + "or signed in as someone else). Sign in again.")

  /// There is no signed-in user for an operation that needs one.
  static let noCurrentUser = AuthError(
    .noCurrentUser, "No user is signed in. Sign in first, then try again.")

  /// An operation was overtaken by a newer sign-in or sign-out.
  static let superseded = AuthError(
    .superseded, "A newer sign-in or sign-out replaced this operation; its result was discarded.")

  /// Turns any error into an `AuthError`: cancellation becomes ``Code/cancelled``, other foreign
  /// errors ``Code/internal``.
  package static func wrapping(_ error: any Error) -> AuthError {
    switch error {
    case let error as AuthError: error
    case let error as FileError: AuthError(.storage, error.message)
    case is CancellationError: .cancelled
    default: AuthError(.internal, "Unexpected error: \(error). Try again; report it if it persists.")
    }
  }
}

extension AuthError {
  /// Runs a file operation, reporting its failure as a ``Code/storage`` error with the file's
  /// message (the path, the system's words, and the fix).
  package static func storage<Value>(_ operation: () throws(FileError) -> Value) throws(AuthError) -> Value {
    do {
      return try operation()
    } catch {
      throw AuthError(.storage, error.message)
    }
  }
}
