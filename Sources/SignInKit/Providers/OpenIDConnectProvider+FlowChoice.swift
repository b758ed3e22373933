import Foundation

extension OpenIDConnectProvider {
  /// A flow that can run: ``Flow`` without ``Flow/automatic``.
  package enum ChosenFlow: Sendable, Equatable {
    case browser
    case appRedirect(URL)
    case device
  }

  /// The flow a sign-in takes on `surface`, or why none can work there: a pure function of the
  /// configuration and the platform.
  ///
  /// | flow | system sheet (iOS, macOS) | desktop browser only (Linux) | neither (tvOS, watchOS) |
  /// |---|---|---|---|
  /// | automatic, with a redirect URI | app redirect through the sheet | browser | error: pass `.device` |
  /// | automatic, no redirect URI | browser on macOS; error on iOS: pass `appRedirectURI` | browser | error: pass `.device` |
  /// | browser | browser on macOS; error on iOS unless the app presents | browser | error unless the app presents |
  /// | appRedirect(uri) | app redirect through the sheet | error: pass `webSession:` | error: pass `webSession:` |
  /// | device | device | device | device |
  ///
  /// A sheet counts when the platform has one or the app passed a ``WebAuthenticationSession``;
  /// "the app presents" means it passed its own `present`, which may open the URL somewhere
  /// that can reach the loopback listener.
  ///
  /// - Throws: ``AuthError/Code/misconfigured``, naming what to pass.
  package static func chooseFlow(
    _ flow: Flow, appRedirectURI: URL?, surface: SignInSurface, hasWebSession: Bool, presentsItself: Bool
  ) throws -> ChosenFlow {
    switch flow {
    case .device:
      return .device
    case .appRedirect(let uri):
      guard hasWebSession else { throw noSheet(for: uri) }
      return .appRedirect(uri)
    case .browser:
      guard surface.hasDesktopBrowser || presentsItself else { throw noBrowser(surface: surface) }
      return .browser
    case .automatic:
      if hasWebSession, let appRedirectURI { return .appRedirect(appRedirectURI) }
      if surface.hasDesktopBrowser { return .browser }
      if hasWebSession {
        throw AuthError(
          .misconfigured,
          "Signing in on this platform uses the system sheet, which needs the app's redirect URI: pass "
            + "appRedirectURI: OpenIDConnectProvider.appRedirectURI(reversedClientID:) with the app's URL scheme "
            + "(for Google, REVERSED_CLIENT_ID from GoogleService-Info.plist, or use .google(firebase: .serviceInfo)).")
      }
      throw noBrowser(surface: surface)
    }
  }

  static func noSheet(for uri: URL) -> AuthError {
    AuthError(
      .misconfigured,
      "The app-redirect flow to \(uri.absoluteString) needs a sheet to show the sign-in, and this platform has "
        + "none: pass webSession: (SystemWebAuthenticationSession on Apple platforms), or use flow: .device.")
  }

  private static func noBrowser(surface: SignInSurface) -> AuthError {
    if surface.hasSystemWebSheet {
      return AuthError(
        .misconfigured,
        "No browser can come back to a loopback redirect on this platform: use flow: .automatic or "
          + ".appRedirect(OpenIDConnectProvider.appRedirectURI(reversedClientID:)), which sign in through the "
          + "system sheet.")
    }
    return AuthError(
      .misconfigured,
      "This platform has no browser and no sign-in sheet: pass flow: .device, the device authorization grant "
        + "(the person enters a code on their phone; Google needs an OAuth client of type \"TVs and Limited Input "
        + "devices\").")
  }
}
