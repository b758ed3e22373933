import Foundation
import SignInCrypto

/// A new passkey, as its authenticator answered a ``PasskeyRegistrationRequest``: what the
/// backend checks and keeps.
///
/// - Concurrency: `Sendable` value; its description shows only the credential id.
public struct PasskeyRegistration: Sendable, Equatable, CustomStringConvertible {
  public var credentialID: Data
  /// The client data the authenticator signed over (JSON).
  public var clientDataJSON: Data
  /// The CBOR attestation object: authenticator data with the new public key, and the
  /// attestation statement.
  public var attestationObject: Data
  /// How the authenticator can be reached again (`internal`, `hybrid`…), when it says.
  public var transports: [String]

  public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = []) {
    self.credentialID = credentialID
    self.clientDataJSON = clientDataJSON
    self.attestationObject = attestationObject
    self.transports = transports
  }

  public var description: String { "PasskeyRegistration(\(Base64URL.encode(Array(credentialID))))" }
}
