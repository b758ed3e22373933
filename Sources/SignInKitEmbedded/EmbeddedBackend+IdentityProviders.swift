import Foundation
import SignInCrypto
import SignInFoundation
import SignInKit
import SignInWire

extension EmbeddedBackend {

}

extension EmbeddedBackend {

}

/// An IdP identity a conflicting sign-in verified, kept under its pending token.
struct PendingIdentity: Codable, Sendable, PendingStep {
  static let kind = "idp-pending"
  var uid: String
  var providerID: ProviderID
  var claims: [String: JSONValue]
}
