#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SwiftUI

  /// How SignInKitUI's screens look: colours, fonts, corner radius and the look of their
  /// buttons. Set it for a screen and everything in it with ``SwiftUI/View/signInTheme(_:)``.
  /// The fonts are text styles, so they follow Dynamic Type; the default colours are the
  /// system's, so they follow light and dark.
  ///
  /// ```swift
  /// SignInView(flow: flow)
  ///   .signInTheme(SignInTheme(accent: .indigo, cornerRadius: 14))
  /// ```
  ///
  /// - Concurrency: a value read on the main actor, where views are.
  public struct SignInTheme {
    /// How the screens' own buttons are drawn (provider buttons keep their brands' looks).
    public enum ButtonLook: Sendable {
      /// Filled with ``SignInTheme/accent``.
      case filled
      /// Outlined in ``SignInTheme/accent``.
      case bordered
    }

    public var accent: Color
    /// The colour of an error line.
    public var error: Color
    /// Behind text fields.
    public var fieldBackground: Color
    public var titleFont: Font
    public var bodyFont: Font
    public var buttonFont: Font
    public var cornerRadius: CGFloat
    public var buttonLook: ButtonLook

    public init(
      accent: Color = .accentColor, error: Color = .red, fieldBackground: Color = Color.secondary.opacity(0.12),
      titleFont: Font = .title2.weight(.semibold), bodyFont: Font = .body,
      buttonFont: Font = .body.weight(.semibold), cornerRadius: CGFloat = 10, buttonLook: ButtonLook = .filled
    ) {
      self.accent = accent
      self.error = error
      self.fieldBackground = fieldBackground
      self.titleFont = titleFont
      self.bodyFont = bodyFont
      self.buttonFont = buttonFont
      self.cornerRadius = cornerRadius
      self.buttonLook = buttonLook
    }
  }

  /// Where a screen finds its theme.
  struct SignInThemeKey: EnvironmentKey {
    static var defaultValue: SignInTheme { SignInTheme() }
  }

  extension EnvironmentValues {
    /// The theme of SignInKitUI's screens (``SignInTheme``).
    public var signInTheme: SignInTheme {
      get { self[SignInThemeKey.self] }
      set { self[SignInThemeKey.self] = newValue }
    }
  }

  extension View {
    /// Draws SignInKitUI's screens inside this view with `theme`.
    public func signInTheme(_ theme: SignInTheme) -> some View {
      environment(\.signInTheme, theme)
    }
  }
#endif
