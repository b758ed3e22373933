#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Switches a terminal to raw input for the line editor and back. Raw here means: no echo, no
/// line buffering, and Ctrl-C / Ctrl-Z / Ctrl-V arrive as bytes rather than signals. Output
/// processing stays on, so `\n` still starts a new line.
///
/// - Concurrency: `Sendable` value; call ``restore()`` from one place at exit.
package struct TerminalMode: Sendable {
  private let descriptor: Int32
  private let original: termios

  /// Puts `descriptor` in raw mode, or returns `nil` when it is not a terminal.
  package static func raw(_ descriptor: Int32) -> TerminalMode? {
    var original = termios()
    guard isatty(descriptor) == 1, tcgetattr(descriptor, &original) == 0 else { return nil }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(descriptor, TCSAFLUSH, &raw) == 0 else { return nil }
    return TerminalMode(descriptor: descriptor, original: original)
  }

  /// Puts the terminal back as it was.
  package func restore() {
    var original = original
    tcsetattr(descriptor, TCSAFLUSH, &original)
  }

  /// The terminal's width in columns (80 when it does not say).
  package static func columns(of descriptor: Int32) -> Int {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
