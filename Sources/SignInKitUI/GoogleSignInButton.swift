#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKitFlows
  import SwiftUI

  /// Google's sign-in button, drawn to Google's branding guidelines: the light, dark and neutral
  /// themes with their fill, outline and text colours, the logo on the left, "Sign in with
  /// Google" (or "Sign in", or the logo alone) in the person's language, and a dimmed disabled
  /// state. The guidelines ask for Google's own "G" logo: pass it as `logo` from your assets;
  /// without one, a "G" in Google's blue stands in.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct GoogleSignInButton: View {
    /// How much the button says.
    public enum Style: Sendable {
      /// The logo and "Sign in".
      case standard
      /// The logo and "Sign in with Google".
      case wide
      /// The logo alone, in a square.
      case icon
    }

    /// Google's three button themes; `nil` follows the colour scheme (light or dark).
    public enum Theme: Sendable {
      case light
      case dark
      case neutral
    }

    let style: Style
    let theme: Theme?
    let logo: Image?
    let strings: FlowStrings
    let action: () -> Void
    @Environment(\.colorScheme) private var colorScheme
    @Environment(\.isEnabled) private var isEnabled

    public init(
      style: Style = .wide, theme: Theme? = nil, logo: Image? = nil, strings: FlowStrings,
      action: @escaping () -> Void
    ) {
      self.style = style
      self.theme = theme
      self.logo = logo
      self.strings = strings
      self.action = action
    }

    public var body: some View {
      Button(action: action) {
        HStack(spacing: 10) {
          mark.frame(width: 20, height: 20).accessibilityHidden(true)
          if style != .icon {
            Text(title).font(.body.weight(.medium)).lineLimit(1).minimumScaleFactor(0.8)
          }
        }
        .padding(.horizontal, style == .icon ? 10 : 12)
        .frame(minWidth: 40, maxWidth: style == .icon ? 40 : .infinity, minHeight: 40)
        .foregroundStyle(colors.text)
        .background(RoundedRectangle(cornerRadius: 4).fill(colors.fill))
        .overlay(RoundedRectangle(cornerRadius: 4).strokeBorder(colors.outline, lineWidth: 1))
        .opacity(isEnabled ? 1 : 0.38)
      }
      .buttonStyle(.plain)
      .accessibilityLabel(Text(strings(.signInWithGoogle)))
    }

    private var title: String {
      style == .wide ? strings(.signInWithGoogle) : strings(.signInButton)
    }

    @ViewBuilder private var mark: some View {
      if let logo {
        logo.resizable().scaledToFit()
      } else {
        Text("G").font(.system(size: 17, weight: .bold)).foregroundStyle(Color(red: 0.259, green: 0.522, blue: 0.957))
      }
    }

    /// Fill, outline and text of the theme, as the guidelines give them.
    private var colors: (fill: Color, outline: Color, text: Color) {
      switch theme ?? (colorScheme == .dark ? .dark : .light) {
      case .light: (.white, Color(red: 0.455, green: 0.467, blue: 0.459), Color(red: 0.122, green: 0.122, blue: 0.122))
      case .dark:
        (
          Color(red: 0.075, green: 0.075, blue: 0.078), Color(red: 0.557, green: 0.569, blue: 0.561),
          Color(red: 0.890, green: 0.890, blue: 0.890)
        )
      case .neutral:
        (Color(red: 0.949, green: 0.949, blue: 0.949), .clear, Color(red: 0.122, green: 0.122, blue: 0.122))
      }
    }
  }
#endif
