/// Whether an identity provider still lets a user sign in to this app with it: Sign in with
/// Apple's credential state (`ASAuthorizationAppleIDProvider.CredentialState`).
///
/// - Concurrency: `Sendable` value.
public enum ProviderCredentialState: Sendable, Equatable, CustomStringConvertible {
  /// The user still authorizes the app.
  case authorized
  /// The user stopped using their Apple ID with the app (in Settings), or Apple revoked it.
  case revoked
  /// The provider knows no such user for this app.
  case notFound
  /// The app moved to another developer team; the user must sign in again to be known there.
  case transferred

  public var description: String {
    switch self {
    case .authorized: "authorized"
    case .revoked: "revoked"
    case .notFound: "not found"
    case .transferred: "transferred"
    }
  }
}
