/// What a platform can show a person who signs in through a web page: the system's
/// web-authentication sheet (`ASWebAuthenticationSession`), a desktop browser that can come back
/// to a loopback redirect, both, or neither. ``OpenIDConnectProvider`` picks its default flow from
/// it (``OpenIDConnectProvider/Flow/automatic``).
///
/// | platform | system sheet | desktop browser |
/// |---|---|---|
/// | iOS, iPadOS, visionOS, Mac Catalyst | yes | no |
/// | macOS | yes | yes |
/// | Linux | no | yes |
/// | tvOS, watchOS | no | no |
///
/// - Concurrency: `Sendable` value.
public struct SignInSurface: Sendable, Equatable, CustomStringConvertible {
  /// `ASWebAuthenticationSession` exists: a sheet in the app that comes back to the app's own
  /// URL scheme.
  public var hasSystemWebSheet: Bool
  /// A browser on this machine can be opened (`xdg-open`, `open`) and can reach a listener on
  /// 127.0.0.1.
  public var hasDesktopBrowser: Bool

  public init(hasSystemWebSheet: Bool, hasDesktopBrowser: Bool) {
    self.hasSystemWebSheet = hasSystemWebSheet
    self.hasDesktopBrowser = hasDesktopBrowser
  }

  /// This platform's.
  public static let current = SignInSurface(
    hasSystemWebSheet: SystemWebSheet.isAvailable, hasDesktopBrowser: OpenIDConnectProvider.canOpenBrowser)

  public var description: String {
    switch (hasSystemWebSheet, hasDesktopBrowser) {
    case (true, true): "system sheet and desktop browser"
    case (true, false): "system sheet"
    case (false, true): "desktop browser"
    case (false, false): "no sheet and no browser"
    }
  }
}
