import Foundation

/// What a relying party asks an authenticator to make a passkey for: the WebAuthn creation
/// options ``Auth/enrollPasskey(named:using:)`` received from the backend.
///
/// - Concurrency: `Sendable` value.
public struct PasskeyRegistrationRequest: Sendable, Equatable {
  /// The relying party id: the domain the passkey belongs to (`example.com`).
  public var relyingPartyID: String
  /// The one-time challenge the backend issued.
  public var challenge: Data
  /// The user handle the passkey stores: the backend's id for the account, not an email.
  public var userID: Data
  /// What the authenticator shows to tell this account's passkeys apart (an email, a number).
  public var userName: String
  public var displayName: String
  /// Credentials the account has already: an authenticator holding one of them makes none.
  public var excludedCredentialIDs: [Data]
  /// Whether the relying party requires user verification (biometrics, PIN).
  public var requiresUserVerification: Bool
  /// The COSE algorithms the relying party takes, most preferred first (-7 ES256, -257 RS256).
  public var algorithms: [Int]

  public init(
    relyingPartyID: String, challenge: Data, userID: Data, userName: String, displayName: String,
    excludedCredentialIDs: [Data] = [], requiresUserVerification: Bool = false, algorithms: [Int] = [-7, -257]
  ) {
    self.relyingPartyID = relyingPartyID
    self.challenge = challenge
    self.userID = userID
    self.userName = userName
    self.displayName = displayName
    self.excludedCredentialIDs = excludedCredentialIDs
    self.requiresUserVerification = requiresUserVerification
    self.algorithms = algorithms
  }
}
