import Foundation
import SignInCrypto
import SignInKit
import SignInWire

/// A passkey ceremony started and waiting for the authenticator's answer, stored by its
/// challenge (base64url) until it is answered once or expires.
struct PendingPasskeyCeremony: Codable, Sendable, PendingStep {
  static let enrollment = "passkey-enrollment"
  static let signIn = "passkey-sign-in"
  /// The account enrolling; empty for a sign-in, whose account the passkey names.
  var uid: String
  /// The caller's own session id for a sign-in (`sessionId`), which the finish must repeat.
  var sessionID: String?
}

extension EmbeddedBackend {

  /// `accounts/passkeySignIn:finalize`: checks the assertion against the challenge it answers
  /// (spent whatever the outcome) and the passkey's key and counter, and signs in its account.
  ///
  /// A passkey sign-in ends where every first factor does. When the authenticator verified the
  /// person (the UV flag: biometrics or a PIN), the passkey counts as both factors and the
  /// account's second factor is not asked; when it reported presence only, an account with a
  /// second factor answers `AuthError/Code/secondFactorRequired`, as after a password.
  ///
  /// - Throws: `PASSKEY_ENROLLMENT_NOT_FOUND` for a credential no account has,
  ///   `INVALID_AUTHENTICATOR_RESPONSE` saying what is wrong, `USER_DISABLED`,
  ///   `AuthError/Code/secondFactorRequired`.
  package func finalizePasskeySignIn(_ assertion: PasskeyAssertion, sessionID: String?) async throws -> SignInResponse {
    try await passkeys.checkedPasskeySignIn(assertion, sessionID: sessionID).signed()
  }

  // MARK: - AuthBackend

  public func passkey(_ request: PasskeyRequest) async throws -> PasskeyResponse {
    switch request {
    case .startEnrollment(let idToken):
      return .creationOptions(try passkeys.startPasskeyEnrollment(idToken: idToken))
    case .finishEnrollment(let idToken, let name, let registration):
      let (tokens, uid) = try passkeys.finalizePasskeyEnrollment(
        idToken: idToken, name: name, registration: registration)
      return .tokens(tokens, uid: uid)
    case .startSignIn:
      return .requestOptions(try passkeys.startPasskeySignIn(sessionID: nil))
    case .finishSignIn(let assertion):
      let response = try await finalizePasskeySignIn(assertion, sessionID: nil)
      return .tokens(response.tokens, uid: response.localID)
    }
  }

  // MARK: - Steps

}
