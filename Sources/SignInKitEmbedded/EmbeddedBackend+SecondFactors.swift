import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// A step of a second factor that waits for its account.
protocol PendingStep {
  var uid: String { get }
}

/// A TOTP enrollment started by `mfaEnrollment:start` for `uid`, with its secret; stored by its
/// `sessionInfo` until it is finished or expires.
struct PendingEnrollment: Codable, Sendable, PendingStep {
  static let kind = "enrollment"
  var uid: String
  var secret: [UInt8]
}

/// A first factor that passed for `uid` (signing in with `provider`), waiting for its second;
/// stored by its `mfaPendingCredential` until it is finished or expires.
struct PendingSignIn: Codable, Sendable, PendingStep {
  static let kind = "sign-in"
  var uid: String
  var provider: ProviderID
  /// Wrong codes tried with it; at ``EmbeddedBackend/secondFactorAttempts`` it is spent.
  var wrongCodes = 0
}

/// Who a first factor (a password, an email link, an identity provider) proved the caller to
/// be, as ``EmbeddedBackend/steps.finishFirstFactor(_:_:)`` takes it.
struct FirstFactor {
  var uid: String
  var email: String?
  var isNewUser = false
  /// The first factor joined the signed-in user of an ID token (a link), who signed in already:
  /// no second factor is asked.
  var isLink = false
  /// The first factor proved two things at once: a passkey whose authenticator verified the
  /// person (biometrics or a PIN: something held and something known or been). No second
  /// factor is asked; a passkey that reports presence only is a first factor like a password.
  var provesSecondFactor = false
}

extension EmbeddedBackend {
  /// How long an enrollment may wait for its first code, and a sign-in for its second factor.
  static let secondFactorWindow: TimeInterval = 5 * 60
  /// Wrong codes one pending sign-in takes before it is spent: a six-digit code cannot be
  /// guessed by trying them all.
  static let secondFactorAttempts = 5

  /// A pending sign-in another call or process finished meanwhile.
  static var signInSpent: AuthError {
    AuthError(
      firebase: .invalidMfaPendingCredential, message: "The sign-in was finished or waited too long; sign in again.")
  }

  static var wrongCode: AuthError {
    AuthError(firebase: .invalidCode, message: "The code is wrong or too old. Enter the one the app shows now.")
  }
}
