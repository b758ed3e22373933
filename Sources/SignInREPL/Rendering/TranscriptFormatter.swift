import Foundation
import SignInKit

/// What the REPL prints for a state, an event or an error: a plain-words line for people, and
/// one JSON object per line for programs (`--json`). Never contains a token or password.
///
/// - Concurrency: stateless functions, any isolation.
package enum TranscriptFormatter {
  /// A state in plain words.
  package static func line(for state: AuthState) -> String {
    switch state {
    case .restoring: "restoring the previous sign-in…"
    case .signingIn(let provider): "signing in with \(name(of: provider))…"
    case .signedIn(let user, .fresh): "signed in as \(who(user))"
    case .signedIn(let user, .refreshing): "signed in as \(who(user)); refreshing the token…"
    case .signedIn(let user, .stale):
      "signed in as \(who(user)); offline, the token will be refreshed when the network is back"
    case .signedIn(let user, .unsaved):
      "signed in as \(who(user)); new tokens could not be saved, will retry (see the error above)"
    case .signedOut(let reason): "signed out (\(words(for: reason)))"
    }
  }

  /// An event in plain words; `nil` for events the state line already says.
  package static func line(for event: AuthEvent) -> String? {
    switch event {
    case .initialState: nil
    case .signedIn(let user, let isNewUser): signedIn(user, isNewUser: isNewUser)
    case .signedOut: nil
    case .tokenRefreshed: "token refreshed"
    case .userUpdated(let user): "profile updated: \(who(user))"
    case .failed(let error): line(for: error)
    }
  }

  /// An error in plain words, with what to do (the error's message says it), and when to try
  /// again when the backend said.
  package static func line(for error: AuthError) -> String {
    guard let retryAfter = error.retryAfter else { return "error (\(error.code)): \(error.message)" }
    let time = retryAfter.formatted(date: .omitted, time: .standard)
    return "error (\(error.code)): \(error.message) Try again after \(time)."
  }

  /// One JSON object for the signed-in user after a change (`{"type":"user","uid":…}`), or
  /// `{"type":"user","user":null}` when signed out.
  package static func json(forUser user: User?) -> String {
    guard let user else { return encode(["type": "user", "user": NSNull()]) }
    return encode(["type": "user", "uid": user.uid, "email": user.email ?? "", "anonymous": user.isAnonymous])
  }

  /// One JSON object for a state.
  package static func json(for state: AuthState) -> String {
    var object: [String: Any] = ["type": "state"]
    switch state {
    case .restoring: object["state"] = "restoring"
    case .signingIn(let provider):
      object["state"] = "signingIn"
      object["provider"] = provider.rawValue
    case .signedIn(let user, let health):
      object["state"] = "signedIn"
      object["health"] =
        switch health {
        case .fresh: "fresh"
        case .refreshing: "refreshing"
        case .stale: "stale"
        case .unsaved: "unsaved"
        }
      object["user"] = fields(of: user)
    case .signedOut(let reason):
      object["state"] = "signedOut"
      object["reason"] = words(for: reason)
    }
    return encode(object)
  }

  /// One JSON object for an error.
  package static func json(for error: AuthError) -> String {
    encode(["type": "error", "code": error.code.rawValue, "message": error.message])
  }

  // MARK: - Pieces

  /// The one-time code a Google sign-in returned for the app's server `clientID`: its length,
  /// or with `reveal` the code itself, which an app would hand to its server once.
  static func serverAuthCode(_ code: String?, for clientID: String, reveal: Bool) -> String {
    guard let code else { return "no server auth code for \(clientID): the issuer returned none" }
    if reveal { return "server auth code for \(clientID): \(code)" }
    return "server auth code for \(clientID): \(code.count) characters (add --reveal to show it)"
  }

  /// A sign-in's result: who, and whether the account is new.
  static func signedIn(_ result: SignInResult) -> String { signedIn(result.user, isNewUser: result.isNewUser) }

  /// A sign-in, as the event and a command's result both say it.
  static func signedIn(_ user: User, isNewUser: Bool) -> String {
    "signed in as \(who(user))\(isNewUser ? " (new account)" : "")"
  }

  static func who(_ user: User) -> String {
    if user.isAnonymous { return "an anonymous user (\(user.uid))" }
    return "\(user.email ?? user.phoneNumber ?? user.displayName ?? "a user") (\(user.uid))"
  }

  /// A second factor: its kind, name and id (`totp "Phone" (E1)`).
  static func describe(_ factor: MultiFactorInfo) -> String {
    "\(factor.kind.rawValue)\(factor.displayName.map { " \"\($0)\"" } ?? "")"
      + "\(factor.phoneNumber.map { " \($0)" } ?? "") (\(factor.enrollmentID))"
  }

  /// An action code's operation, by its wire name (`PASSWORD_RESET`, `EMAIL_SIGNIN`, …).
  static func name(of operation: ActionCodeInfo.Operation) -> String { operation.requestType }

  /// The hosted handler's providers by name, as their own buttons say them.
  static let hostedNames = [
    "microsoft.com": "Microsoft", "github.com": "GitHub", "twitter.com": "X", "yahoo.com": "Yahoo",
    "facebook.com": "Facebook", "gc.apple.com": "Game Center", "playgames.google.com": "Play Games",
  ]

  static func name(of provider: ProviderID) -> String {
    switch provider {
    case .password: "email and password"
    case .anonymous: "no account (anonymous)"
    case .google: "Google"
    case .apple: "Apple"
    case .custom: "a custom token"
    case .phone: "a phone number"
    case .emailLink: "an email link"
    default: hostedNames[provider.rawValue] ?? provider.rawValue
    }
  }

  static func words(for reason: SignOutReason) -> String {
    switch reason {
    case .initial: "not signed in yet"
    case .userRequested: "you signed out"
    case .refreshRejected(let code): "the server ended the session (\(code)); sign in again"
    case .userDeleted: "the account was deleted"
    case .userDisabled: "the account was disabled by an administrator"
    case .storageCleared: "the saved session was removed"
    case .storageUnreadable: "the saved session could not be read; it was kept aside"
    case .credentialRevoked(let provider): "\(name(of: provider)) no longer authorizes this app; sign in again"
    case .credentialTransferred(let provider):
      "the app moved to another developer team; sign in with \(name(of: provider)) again"
    case .tenantChanged: "switched to another tenant; its session is kept for when you switch back"
    case .signedOutElsewhere: "another process using this data folder signed out"
    }
  }

  static func fields(of user: User) -> [String: Any] {
    var fields: [String: Any] = [
      "uid": user.uid, "emailVerified": user.emailVerified, "isAnonymous": user.isAnonymous,
      "providers": user.providers.map(\.providerID.rawValue),
    ]
    if let email = user.email { fields["email"] = email }
    if let name = user.displayName { fields["displayName"] = name }
    return fields
  }

  static func encode(_ object: [String: Any]) -> String {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return #"{"type":"error","code":"internal","message":"unencodable output"}"# }
    return String(decoding: data, as: UTF8.self)
  }
}
