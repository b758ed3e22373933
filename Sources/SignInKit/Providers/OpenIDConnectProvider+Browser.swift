import Foundation

extension OpenIDConnectProvider {
  /// Whether this platform starts processes, so ``openInBrowser(_:)`` can open a desktop browser
  /// (Linux and macOS).
  static let canOpenBrowser: Bool = {
    #if os(Linux) || os(macOS)
      true
    #else
      false
    #endif
  }()

  /// Opens `url` in the desktop's browser with `xdg-open` (Linux) or `open` (macOS), when one
  /// exists; does not wait for the browser.
  ///
  /// Only Linux and macOS start processes. On iOS, tvOS, watchOS and visionOS this does
  /// nothing: present the authorization URL in an `ASWebAuthenticationSession` there.
  public static func openInBrowser(_ url: URL) {
    #if os(Linux) || os(macOS)
      for opener in ["/usr/bin/xdg-open", "/usr/bin/open"]
      where FileManager.default.isExecutableFile(atPath: opener) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        return
      }
    #endif
  }
}
