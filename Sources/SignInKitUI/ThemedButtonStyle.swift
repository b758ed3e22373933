#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SwiftUI

  /// The screens' own buttons (sign in, send code, verify…), drawn as the theme says: full
  /// width, at least 44 points high and taller with Dynamic Type, dimmed while disabled.
  ///
  /// - Concurrency: a SwiftUI style, on the main actor.
  struct ThemedButtonStyle: ButtonStyle {
    @Environment(\.signInTheme) private var theme
    @Environment(\.isEnabled) private var isEnabled

    func makeBody(configuration: Configuration) -> some View {
      let shape = RoundedRectangle(cornerRadius: theme.cornerRadius)
      configuration.label
        .font(theme.buttonFont)
        .frame(maxWidth: .infinity, minHeight: 44)
        .foregroundStyle(theme.buttonLook == .filled ? Color.white : theme.accent)
        .background {
          switch theme.buttonLook {
          case .filled: shape.fill(theme.accent)
          case .bordered: shape.strokeBorder(theme.accent, lineWidth: 1.5)
          }
        }
        .contentShape(shape)
        .opacity(isEnabled ? (configuration.isPressed ? 0.7 : 1) : 0.4)
    }
  }
#endif
