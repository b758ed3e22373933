/// Where the Firebase Auth emulator listens, as `FIREBASE_AUTH_EMULATOR_HOST` spells it:
/// `host:port` with no scheme. An IPv6 address is written in brackets (`[::1]:9099`); a bare one
/// (`::1`) is bracketed; a missing port means 9099, the emulator's default.
///
/// - Concurrency: `Sendable` value.
public struct FirebaseEmulatorHost: Sendable, Equatable, CustomStringConvertible {
  public static let defaultPort = 9099
  /// The host as it goes in a URL (IPv6 in brackets).
  public let host: String
  public let port: Int

  /// Parses `value`.
  ///
  /// - Throws: ``AuthError`` with ``AuthError/Code/misconfigured`` when it has a scheme or a
  ///   path, or its port is not a number; the message shows the expected form.
  public init(_ value: String) throws {
    let value = value.trimmingCharacters(in: .whitespaces)
    func invalid(_ why: String) -> AuthError {
      AuthError(
        .misconfigured,
        "The emulator host '\(value)' \(why). Write it as host:port with no scheme, such as 127.0.0.1:9099 or [::1]:9099."
      )
    }
    guard !value.isEmpty else { throw invalid("is empty") }
    guard !value.contains("/") else { throw invalid("has a scheme or a path") }
    var host: Substring
    var port: Substring?
    if value.hasPrefix("[") {
      guard let close = value.firstIndex(of: "]") else { throw invalid("has no closing bracket") }
      host = value[...close]
      let rest = value[value.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { throw invalid("has text after the bracket") }
        port = rest.dropFirst()
      }
    } else if value.filter({ $0 == ":" }).count > 1 {
      host = Substring("[\(value)]")
    } else if let colon = value.firstIndex(of: ":") {
      host = value[..<colon]
      port = value[value.index(after: colon)...]
    } else {
      host = Substring(value)
    }
    guard !host.isEmpty, host != "[]" else { throw invalid("has no host") }
    if let port {
      guard let number = Int(port), (1...65535).contains(number) else { throw invalid("has an invalid port") }
      self.port = number
    } else {
      self.port = Self.defaultPort
    }
    self.host = String(host)
  }

  /// `host:port`, as it goes after `http://`.
  public var description: String { "\(host):\(port)" }
}
