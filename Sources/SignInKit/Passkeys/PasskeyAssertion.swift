import Foundation
import SignInCrypto

/// A passkey's answer to a ``PasskeyAssertionRequest``: what the backend checks to sign in.
///
/// - Concurrency: `Sendable` value; its description shows only the credential id.
public struct PasskeyAssertion: Sendable, Equatable, CustomStringConvertible {
  public var credentialID: Data
  public var clientDataJSON: Data
  /// The authenticator data that was signed: the relying party id hash, flags and counter.
  public var authenticatorData: Data
  public var signature: Data
  /// The user handle the passkey stored at registration (``PasskeyRegistrationRequest/userID``).
  public var userHandle: Data?

  public init(
    credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?
  ) {
    self.credentialID = credentialID
    self.clientDataJSON = clientDataJSON
    self.authenticatorData = authenticatorData
    self.signature = signature
    self.userHandle = userHandle
  }

  public var description: String { "PasskeyAssertion(\(Base64URL.encode(Array(credentialID))))" }
}
