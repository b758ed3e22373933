import Foundation

/// The options of the `google` command.
///
/// - Concurrency: `Sendable` value.
package struct GoogleOptions: Sendable, Equatable {
  /// Sign in at this OpenID issuer instead of the embedded IdP.
  package var issuer: String?
  package var clientID: String?
  package var clientSecret: String?
  /// Use the device authorization grant rather than a browser on this machine.
  package var device = false
  package var deviceEndpoint: URL?

  package init(
    issuer: String? = nil, clientID: String? = nil, clientSecret: String? = nil, device: Bool = false,
    deviceEndpoint: URL? = nil
  ) {
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.device = device
    self.deviceEndpoint = deviceEndpoint
  }

  /// Whether any option was given.
  package var isEmpty: Bool { self == GoogleOptions() }
}
