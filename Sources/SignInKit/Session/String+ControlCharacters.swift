extension String {
  /// The text without what could steer a terminal: C0 controls (ESC among them) and DEL, C1
  /// controls (U+0080–U+009F, which some terminals read as CSI or OSC), and the bidirectional
  /// overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what is shown.
  ///
  /// Use it on text that comes from a server or a redirect (`error_description`, a display name)
  /// before it reaches a terminal or a log. Tabs become spaces; line breaks are kept only when
  /// `keepingLineBreaks` is set, and become spaces otherwise.
  package func removingControlCharacters(keepingLineBreaks: Bool = false) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      switch scalar.value {
      case 0x0A where keepingLineBreaks: scalars.append(scalar)
      case 0x09, 0x0A, 0x0D: scalars.append(" ")
      case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: continue
      default: scalars.append(scalar)
      }
    }
    return String(scalars)
  }
}
