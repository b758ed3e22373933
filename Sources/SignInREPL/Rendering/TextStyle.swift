#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ANSI colour for the transcript, or none. Colour is on only when standard output is a
/// terminal, `TERM` is not `dumb`, and `NO_COLOR` is unset or empty (no-color.org).
///
/// - Concurrency: `Sendable` value.
package struct TextStyle: Sendable, Equatable {
  package let isColoured: Bool
  /// Whether the terminal can redraw a line (a spinner): not with `TERM=dumb`, nor off a terminal.
  package let animates: Bool

  package init(isColoured: Bool, animates: Bool = true) {
    self.isColoured = isColoured
    self.animates = animates
  }

  /// The style for standard output in `environment`.
  package static func forStandardOutput(environment: [String: String]) -> TextStyle {
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    let capable = isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
    return TextStyle(isColoured: capable && !noColor, animates: capable)
  }

  package static let plain = TextStyle(isColoured: false)

  package func error(_ text: String) -> String { paint(text, "31") }
  package func live(_ text: String) -> String { paint(text, "36") }
  package func prompt(_ text: String) -> String { paint(text, "1") }
  package func quiet(_ text: String) -> String { paint(text, "2") }

  private func paint(_ text: String, _ code: String) -> String {
    isColoured ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
