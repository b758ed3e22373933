/// Where a command's extra input comes from: a password, or the account chosen at an IdP.
///
/// - Concurrency: `Sendable`; one command reads at a time.
package protocol InputSource: Sendable {
  /// Whether a person is typing (passwords are then asked twice, and choices are listed).
  var isTerminal: Bool { get }
  /// The next line, after showing `prompt` at a terminal; `nil` at end of input or when the
  /// calling task is cancelled.
  func line(prompt: String) async -> String?
  /// A secret, typed without echo at a terminal; never kept in history. `nil` at end of input
  /// or when the calling task is cancelled.
  func secret(prompt: String) async -> String?
}
