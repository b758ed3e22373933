/// Why there is no signed-in user. Every ``AuthState/signedOut(_:)`` carries one.
///
/// - Concurrency: `Sendable` value.
public enum SignOutReason: Sendable, Equatable, CustomStringConvertible {
  /// Nobody has signed in yet, or the store held no session.
  case initial
  /// The app called ``Auth/signOut()``.
  case userRequested
  /// The backend refused to refresh the session, with the code it gave (for example
  /// ``AuthError/Code/invalidRefreshToken`` or ``AuthError/Code/sessionExpired``).
  case refreshRejected(AuthError.Code)
  /// The account was deleted, here or elsewhere.
  case userDeleted
  /// An administrator disabled the account.
  case userDisabled
  /// The stored session was removed without a sign-out (for example by another process).
  case storageCleared
  /// The stored session could not be read. The file was kept aside (quarantined), nothing was
  /// deleted, and ``AuthStateStore/errorMessage`` says where it is.
  case storageUnreadable
  /// The identity provider the session depends on stopped authorizing the app: the person
  /// stopped using their Apple ID with it, or Apple revoked it
  /// (``ProviderCredentialState/revoked``).
  case credentialRevoked(ProviderID)
  /// The app moved to another developer team, so the provider's user must sign in again
  /// (``ProviderCredentialState/transferred``).
  case credentialTransferred(ProviderID)
  /// The app switched ``Auth`` to another tenant (``Auth/switchTenant(to:)``): the previous
  /// tenant's session is kept, stored, for when the app switches back.
  case tenantChanged
  /// Another process sharing the store (an app extension, a second `signin` on the same folder)
  /// signed out; this process followed (``SessionStore/changes()``).
  case signedOutElsewhere

  public var description: String {
    switch self {
    case .initial: "not signed in"
    case .userRequested: "signed out by request"
    case .refreshRejected(let code): "session ended by the server: \(code)"
    case .userDeleted: "account deleted"
    case .userDisabled: "account disabled"
    case .storageCleared: "saved session removed"
    case .storageUnreadable: "saved session unreadable"
    case .credentialRevoked(let provider): "\(provider) sign-in revoked"
    case .credentialTransferred(let provider): "\(provider) sign-in transferred to another team"
    case .tenantChanged: "switched to another tenant"
    case .signedOutElsewhere: "signed out in another process"
    }
  }
}
