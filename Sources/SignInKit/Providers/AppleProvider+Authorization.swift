import Foundation

extension AppleProvider.Authorization {
  /// What an Apple ID credential carries: the identity token and authorization code as bytes
  /// (UTF-8), the user's identifier, and the name parts, email and real-user status Apple
  /// shares on the first sign-in only.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` when there is no token or it is not text.
  public init(
    identityTokenData: Data?, givenName: String?, familyName: String?, authorizationCodeData: Data? = nil,
    userIdentifier: String? = nil, email: String? = nil, realUserStatus: AppleProvider.RealUserStatus? = nil
  ) throws {
    guard let identityTokenData, !identityTokenData.isEmpty,
      let token = String(data: identityTokenData, encoding: .utf8)
    else {
      throw AuthError(
        .invalidResponse,
        "Sign in with Apple returned no identity token. Try again; if it keeps happening, check "
          + "that the app has the Sign in with Apple capability.")
    }
    func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
    self.init(
      identityToken: token, givenName: nonEmpty(givenName), familyName: nonEmpty(familyName),
      authorizationCode: nonEmpty(authorizationCodeData.flatMap { String(data: $0, encoding: .utf8) }),
      userIdentifier: nonEmpty(userIdentifier), email: nonEmpty(email), realUserStatus: realUserStatus)
  }
}

extension AppleProvider {
  /// The error for an `ASAuthorizationError` code (the `ASAuthorizationErrorDomain` numbers),
  /// worded for the person who tried to sign in.
  public static func error(forAuthorizationErrorCode code: Int) -> AuthError {
    switch code {
    case 1001:  // canceled
      AuthError(.userCancelled, "Sign in with Apple was cancelled; nothing changed.")
    case 1002:  // invalidResponse
      AuthError(.invalidResponse, "Sign in with Apple answered with something unusable. Try again.")
    case 1003:  // notHandled
      AuthError(.internal, "Sign in with Apple did not handle the request. Try again.")
    case 1005:  // notInteractive
      AuthError(
        .cancelled, "Sign in with Apple needs the person to be there; start it from a button.")
    case 1004:  // failed
      AuthError(.unavailable, "Sign in with Apple failed. Check the network and try again.")
    default:  // 1000 unknown, and codes added later
      AuthError(
        .unavailable,
        "Sign in with Apple failed (code \(code)). Check that the device is signed in to an Apple "
          + "Account and that the app has the Sign in with Apple capability.")
    }
  }
}
