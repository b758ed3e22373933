import Foundation
import SignInKit

/// One command of the `signin` REPL, parsed and checked, ready to dispatch.
///
/// - Concurrency: `Sendable` value.
package enum REPLCommand: Sendable, Equatable {
  case signUp(email: String)
  case signIn(email: String)
  case anonymous
  /// Sign in with a custom token.
  case customToken(String)
  /// Google (or any OpenID issuer) sign-in; without options, the configured or embedded IdP.
  case google(GoogleOptions = GoogleOptions())
  /// Sign in with Apple; with a token and its raw nonce, that token.
  case apple(idToken: String? = nil, rawNonce: String? = nil)
  case linkEmail(String)
  /// Add the email of a sign-in link to the signed-in user.
  case linkEmailLink(email: String, link: String)
  /// Email a sign-in link.
  case sendSignInLink(email: String, continueURL: URL?)
  /// Sign in with a sign-in link.
  case signInWithLink(email: String, link: String)
  case linkProvider(ProviderID)
  case unlink(ProviderID)
  case restore
  case whoami
  case token(force: Bool, claims: Bool, reveal: Bool)
  case refresh
  case reload
  case profile(name: String?, photo: URL?)
  case changeEmail(String)
  case changePassword
  case verifyEmail
  case applyCode(String)
  /// Enrol an authenticator app (TOTP) as a second factor, named `name`.
  case enrollTOTP(name: String?)
  /// Remove the second factor with this enrollment id.
  case unenrollSecondFactor(String)
  /// Say what an action code is for and for whom, without using it.
  case checkCode(String)
  /// Email a new address a link that makes it the account's email.
  case verifyNewEmail(String)
  case resetPassword(email: String)
  case confirmReset(code: String)
  case mailbox(email: String?)
  case deleteAccount
  case signOut
  case state
  case watch(Bool)
  /// Print the signed-in user whenever it changes (``Auth/users``), or stop.
  case watchUsers(Bool)
  case quit
  case help(String?)
}

extension REPLCommand {
  /// Whether the command line holds a secret (an identity token, a client secret, a one-time
  /// code that proves access to the mailbox), so it must not be kept in history.
  package var carriesSecret: Bool {
    switch self {
    case .apple(let idToken, _): idToken != nil
    case .google(let options): options.clientSecret != nil
    case .applyCode, .confirmReset, .customToken, .checkCode, .signInWithLink, .linkEmailLink: true
    default: false
    }
  }
}

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
