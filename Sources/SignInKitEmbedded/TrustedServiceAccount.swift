import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit

/// A service account whose custom tokens a backend accepts: its email (the tokens' `iss` and
/// `sub`) and its public key.
///
/// - Concurrency: `Sendable` value.
public struct TrustedServiceAccount: Sendable, Equatable {
  public var clientEmail: String
  /// The RSA public key, PEM (`BEGIN PUBLIC KEY`).
  public var publicKeyPEM: String

  public init(clientEmail: String, publicKeyPEM: String) {
    self.clientEmail = clientEmail
    self.publicKeyPEM = publicKeyPEM
  }

  /// The account in a service-account key file as the Google Cloud console downloads it
  /// (`client_email` and `private_key`). Only the public half is kept.
  ///
  /// - Throws: `AuthError/Code/misconfigured` saying which field is missing or unusable.
  public init(keyFile data: Data) throws {
    guard let object = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object else {
      throw AuthError(.misconfigured, "The service-account file is not a JSON object. Download the key file again.")
    }
    guard let email = object["client_email"]?.string, !email.isEmpty else {
      throw AuthError(.misconfigured, "The service-account file has no client_email. Download the key file again.")
    }
    guard let pem = object["private_key"]?.string, let key = try? RSAPrivateKey(pem: pem) else {
      throw AuthError(
        .misconfigured, "The service-account file's private_key is not an RSA key. Download the key file again.")
    }
    self.init(clientEmail: email, publicKeyPEM: try key.publicKey.pem)
  }
}
