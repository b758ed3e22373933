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

  // MARK: - AuthBackend

  // MARK: - Steps

}
