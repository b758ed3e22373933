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
  /// A Google ID token obtained elsewhere (GoogleSignIn, another app): signed in with as held.
  package var idToken: String?
  /// The embedded IdP's account to sign in, instead of asking (for `-c` scripts and piped input).
  package var account: String?
  /// The app server's OAuth client: the sign-in then returns a one-time code for it
  /// (GoogleSignIn's `serverClientID`).
  package var serverClientID: String?
  /// Print the server auth code itself, not only its length.
  package var revealsServerCode = false

  package init(
    issuer: String? = nil, clientID: String? = nil, clientSecret: String? = nil, device: Bool = false,
    deviceEndpoint: URL? = nil, idToken: String? = nil, account: String? = nil
  ) {
    self.account = account
    self.idToken = idToken
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.device = device
    self.deviceEndpoint = deviceEndpoint
  }

  /// Whether any option was given.
  package var isEmpty: Bool { self == GoogleOptions() }
}
