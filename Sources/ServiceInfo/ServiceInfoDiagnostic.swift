/// One finding about a `GoogleService-Info.plist`, printed the way compilers print them
/// (`path:line: error: message`) so the build shows it at the file.
///
/// - Concurrency: `Sendable` value.
public struct ServiceInfoDiagnostic: Sendable, Equatable, CustomStringConvertible {
  /// - Concurrency: `Sendable` value.
  public enum Severity: String, Sendable {
    case error, warning
  }

  public var severity: Severity
  public var path: String
  public var line: Int
  public var message: String

  public init(_ severity: Severity, path: String, line: Int = 1, _ message: String) {
    self.severity = severity
    self.path = path
    self.line = line
    self.message = message
  }

  public var description: String { "\(path):\(line): \(severity.rawValue): \(message)" }
}
