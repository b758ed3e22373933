import Foundation

/// What a relying party asks an authenticator to sign to sign in: the WebAuthn request options
/// ``Auth/signInWithPasskey(using:presentation:)`` received from the backend.
///
/// - Concurrency: `Sendable` value.
public struct PasskeyAssertionRequest: Sendable, Equatable {
  /// How the authenticator offers its passkeys.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Presentation: Sendable, Equatable {
    /// A sheet that lists the passkeys for the relying party at once.
    case modal
    /// AutoFill: the passkeys are offered in the QuickType bar of the username field, and the
    /// request waits until the person picks one there.
    case autoFill
  }

  public var relyingPartyID: String
  /// The one-time challenge the backend issued.
  public var challenge: Data
  /// The credentials that may answer; empty lets the person pick any passkey for the relying
  /// party (a discoverable, username-less sign-in).
  public var allowedCredentialIDs: [Data]
  public var requiresUserVerification: Bool
  public var presentation: Presentation

  public init(
    relyingPartyID: String, challenge: Data, allowedCredentialIDs: [Data] = [], requiresUserVerification: Bool = false,
    presentation: Presentation = .modal
  ) {
    self.relyingPartyID = relyingPartyID
    self.challenge = challenge
    self.allowedCredentialIDs = allowedCredentialIDs
    self.requiresUserVerification = requiresUserVerification
    self.presentation = presentation
  }
}
