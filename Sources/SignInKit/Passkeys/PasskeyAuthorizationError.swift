import Foundation

/// What an `ASAuthorizationError` from a passkey request means for the person, by its code, so
/// the mapping is the same on every platform and tested where there is no AuthenticationServices.
///
/// - Concurrency: stateless.
public enum PasskeyAuthorizationError {
  /// The error for `ASAuthorizationError` code `code` of a passkey request at `relyingPartyID`.
  /// A failure whose description mentions the app's associated domains is a relying party
  /// mismatch: the app is not associated with the relying party's domain.
  public static func error(forCode code: Int, description: String = "", relyingPartyID: String) -> AuthError {
    switch code {
    case 1001:  // canceled
      return AuthError(.userCancelled, "The passkey sheet was closed; nothing changed.")
    case 1005:  // notInteractive: no passkey to offer without asking
      return AuthError(
        .noPasskey, "This device has no passkey for \(relyingPartyID). Enrol one, or sign in another way.")
    case 1006:  // matchedExcludedCredential
      return AuthError(.passkeyRefused, "This device already holds a passkey for this account.")
    case 1004
    where description.localizedCaseInsensitiveContains("associated domain")
      || description.localizedCaseInsensitiveContains("not associated"):
      return AuthError(
        .relyingPartyMismatch,
        "This app may not use passkeys of \(relyingPartyID): add webcredentials:\(relyingPartyID) to its Associated "
          + "Domains, and serve https://\(relyingPartyID)/.well-known/apple-app-site-association listing the app.")
    case 1002:  // invalidResponse
      return AuthError(.passkeyRefused, "The passkey sheet answered with something unusable. Try again.")
    default:  // 1000 unknown, 1003 notHandled, 1004 failed, and codes added later
      return AuthError(
        .passkeyRefused,
        "The passkey request failed (code \(code)). Check that the device has a passcode and iCloud Keychain, "
          + "and try again.")
    }
  }
}
