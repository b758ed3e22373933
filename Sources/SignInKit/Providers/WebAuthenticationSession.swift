import Foundation

/// Shows an authorization URL in a browser sheet and returns the URL the identity provider
/// redirected to, in the app's own scheme: what `ASWebAuthenticationSession` does on Apple
/// platforms (`SystemWebAuthenticationSession`). ``OpenIDConnectProvider`` uses it for
/// ``OpenIDConnectProvider/Flow/appRedirect(_:)``; tests pass a fake.
///
/// - Concurrency: `Sendable`; ``authenticate(at:callbackScheme:)`` may be called from any
///   isolation.
public protocol WebAuthenticationSession: Sendable {
  /// Presents `url` and returns the callback URL (scheme `callbackScheme`).
  ///
  /// - Cancellation: cancelling the calling task closes the sheet and throws
  ///   ``AuthError/Code/cancelled``.
  /// - Throws: ``AuthError/Code/userCancelled`` when the person closes the sheet.
  func authenticate(at url: URL, callbackScheme: String) async throws -> URL
}

extension OpenIDConnectProvider {
  /// The redirect URI of an iOS app's OAuth client: its `REVERSED_CLIENT_ID` (from
  /// `GoogleService-Info.plist`) as the scheme, `/oauthredirect` as the path.
  ///
  /// ```swift
  /// let flow = OpenIDConnectProvider.Flow.appRedirect(
  ///   OpenIDConnectProvider.appRedirectURI(reversedClientID: ServiceInfo.reversedClientID!))
  /// ```
  public static func appRedirectURI(reversedClientID: String) -> URL {
    URL(string: "\(reversedClientID):/oauthredirect")!
  }

  /// The query of the URL the identity provider sent the browser back to, once it is known to
  /// be this app's redirect URI.
  ///
  /// - Throws: ``AuthError/Code/invalidResponse`` for another scheme or path, or a repeated
  ///   field (which a forged redirect would use to smuggle a second `state`).
  static func query(ofCallback callback: URL, redirectURI: URL) throws -> [String: String] {
    guard callback.scheme?.lowercased() == redirectURI.scheme?.lowercased(),
      callback.path == redirectURI.path
    else {
      throw AuthError(
        .invalidResponse,
        "The sign-in came back to \(callback.scheme ?? "no scheme"):\(callback.path), not to the "
          + "redirect URI \(redirectURI.absoluteString); nothing changed. Sign in again.")
    }
    var fields: [String: String] = [:]
    for item in URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
      guard fields.updateValue(item.value ?? "", forKey: item.name) == nil else {
        throw AuthError(
          .invalidResponse,
          "The sign-in came back with \(item.name) twice, so it may be forged. Sign in again.")
      }
    }
    return fields
  }

  /// What a web-authentication sheet's completion handler was given, as the sign-in's answer:
  /// the callback URL, or the error for `errorCode` (an `ASWebAuthenticationSessionError` code;
  /// `nil` or 0 for an error from another domain or none at all).
  package static func webAuthenticationResult(callback: URL?, errorCode: Int?) -> Result<URL, any Error> {
    if let callback { return .success(callback) }
    return .failure(error(forWebAuthenticationErrorCode: errorCode ?? 0))
  }

  /// The error for an `ASWebAuthenticationSessionError` code.
  public static func error(forWebAuthenticationErrorCode code: Int) -> AuthError {
    switch code {
    case 1:  // canceledLogin
      AuthError(.userCancelled, "The sign-in sheet was closed; nothing changed.")
    case 2, 3:  // presentationContextNotProvided, presentationContextInvalid
      AuthError(
        .misconfigured,
        "The sign-in sheet had no window to show over. Give the session a presentation anchor "
          + "from a window that is on screen.")
    default:
      AuthError(.unavailable, "The sign-in sheet failed (code \(code)). Try again.")
    }
  }
}
