/// The URL scheme an iOS app receives the hosted handler's answers at, as FirebaseAuth registers
/// it: the reversed OAuth client id (`com.googleusercontent.apps.123-abc`) when the app has one,
/// else `app-` and the Firebase app id with its colons as dashes (`app-1-1234-ios-abcd`). The
/// client (`OAuthProvider`, the reCAPTCHA flow) and `signin serve`'s handler page both take the
/// scheme from here, so they cannot disagree.
///
/// - Concurrency: stateless.
package enum HandlerCallbackScheme {
  /// The host of the answer's URL when the scheme is one of the above (`SCHEME://firebaseauth/link`).
  package static let host = "firebaseauth"

  /// The scheme for an app with `clientID` or `appID`; `nil` when it has neither.
  package static func scheme(clientID: String?, appID: String?) -> String? {
    if let clientID, !clientID.isEmpty { return clientID.split(separator: ".").reversed().joined(separator: ".") }
    if let appID, !appID.isEmpty { return "app-" + appID.replacingOccurrences(of: ":", with: "-") }
    return nil
  }
}
