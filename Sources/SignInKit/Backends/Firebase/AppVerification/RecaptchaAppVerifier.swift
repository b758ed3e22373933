import Foundation
import SignInCrypto
import SignInWire

/// Proves an app with reCAPTCHA on the project's hosted handler, in the system web sheet, as
/// FirebaseAuth falls back to when no silent push comes: the sheet opens
/// `https://AUTH_DOMAIN/__/auth/handler?authType=verifyApp…`, the person passes reCAPTCHA, and
/// the handler answers at the app's URL scheme with the token (`recaptchaToken`).
///
/// The app registers the scheme (``callbackScheme``) under `CFBundleURLTypes`, as for
/// FirebaseAuth: `app-` and the Firebase app id with dashes for colons.
///
/// - Concurrency: `Sendable` value.
public struct RecaptchaAppVerifier: PhoneAppVerifier {
  /// The web sheet that shows the page; the system's (`ASWebAuthenticationSession`) by default
  /// on Apple platforms.
  public var session: any WebAuthenticationSession
  /// The app's URL scheme for the handler's answer; by default derived from the backend's app
  /// id.
  public var callbackScheme: String?
  /// The project's auth domain (`my-project.firebaseapp.com`); by default the first of the
  /// project's authorized domains on `firebaseapp.com` or `web.app`.
  public var authDomain: String?

  /// - Throws: ``AuthError/Code/misconfigured`` on a platform with no system web sheet and no
  ///   `session` given.
  public init(
    session: (any WebAuthenticationSession)? = nil, callbackScheme: String? = nil, authDomain: String? = nil
  ) throws {
    guard let session = session ?? SystemWebSheet.session else {
      throw AuthError(
        .misconfigured, "This platform has no web sheet for reCAPTCHA; pass a WebAuthenticationSession.")
    }
    self.session = session
    self.callbackScheme = callbackScheme
    self.authDomain = authDomain
  }

  public func proof(for backend: FirebaseBackend) async throws -> AppVerificationProof {
    guard let scheme = callbackScheme ?? HandlerCallbackScheme.scheme(clientID: nil, appID: backend.appID) else {
      throw AuthError(
        .misconfigured,
        "reCAPTCHA needs the app's URL scheme: set FirebaseBackend.appID (GOOGLE_APP_ID) or the verifier's "
          + "callbackScheme, and register it under CFBundleURLTypes.")
    }
    var domain = authDomain ?? ""
    if authDomain == nil { domain = try await backend.authDomain() }
    let eventID = Base64URL.encode(try Crypto.randomBytes(8))
    guard
      let url = HostedHandler.verifyAppURL(
        authDomain: domain, apiKey: backend.apiKey, bundleID: backend.bundleID, appID: backend.appID,
        languageCode: backend.languageCode, eventID: eventID, appCheckToken: try? await backend.appCheckHeader())
    else {
      throw AuthError(.misconfigured, "The auth domain \(domain) does not make a URL; check it.")
    }
    let callback = try await session.authenticate(at: url, callbackScheme: scheme)
    return .recaptcha(token: try HostedHandler.recaptchaToken(from: callback, eventID: eventID, callbackScheme: scheme))
  }
}
