#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKit
  import SignInKitFlows
  import SwiftUI

  /// "Continue with …" for an identity provider without a button of its own in SignInKitUI
  /// (Microsoft, GitHub, X, Yahoo, Facebook, an OIDC or SAML provider), a passkey, email or
  /// phone: the provider's name in the person's language, its mark, and the brand colours of the
  /// providers that ask for them. Google and Apple have ``GoogleSignInButton`` and
  /// ``AppleSignInButton``.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct ProviderButton: View {
    let provider: ProviderID
    let strings: FlowStrings
    let action: () -> Void
    @Environment(\.signInTheme) private var theme
    @Environment(\.colorScheme) private var colorScheme

    /// - Parameters:
    ///   - provider: whose button it is; ``SignInKit/ProviderID/passkey`` reads "Sign in with a
    ///     passkey".
    ///   - strings: the language of the label.
    ///   - action: what a tap does (`flow.choose(.identityProvider(provider))`).
    public init(_ provider: ProviderID, strings: FlowStrings, action: @escaping () -> Void) {
      self.provider = provider
      self.strings = strings
      self.action = action
    }

    public var body: some View {
      Button(action: action) {
        HStack(spacing: 10) {
          Image(systemName: symbol).imageScale(.medium).accessibilityHidden(true)
          Text(label).lineLimit(2).multilineTextAlignment(.center)
        }
        .font(theme.buttonFont)
        .frame(maxWidth: .infinity, minHeight: 44)
        .padding(.horizontal, 12)
        .foregroundStyle(colors.foreground)
        .background(RoundedRectangle(cornerRadius: theme.cornerRadius).fill(colors.background))
        .overlay(RoundedRectangle(cornerRadius: theme.cornerRadius).strokeBorder(colors.border, lineWidth: 1))
      }
      .buttonStyle(.plain)
      .accessibilityLabel(Text(label))
    }

    private var label: String {
      provider == .passkey
        ? strings(.signInWithPasskey) : strings(.continueWithProvider, SignInFlow.name(of: provider, in: strings))
    }

    private var symbol: String {
      switch provider {
      case .passkey: "person.badge.key"
      case .password, .emailLink: "envelope"
      case .phone: "phone"
      default: "arrow.right.circle"
      }
    }

    /// The brands that ask for their colours: Facebook's blue, X's black and white, GitHub's
    /// near-black, Yahoo's purple; others take the system's.
    private var colors: (background: Color, foreground: Color, border: Color) {
      let dark = colorScheme == .dark
      switch provider {
      case .facebook: return (Color(red: 0.094, green: 0.467, blue: 0.949), .white, .clear)
      case .twitter: return (dark ? .white : .black, dark ? .black : .white, .clear)
      case .github:
        return (dark ? .white : Color(red: 0.141, green: 0.161, blue: 0.180), dark ? .black : .white, .clear)
      case .yahoo: return (Color(red: 0.376, green: 0.004, blue: 0.824), .white, .clear)
      default: return (Color.clear, Color.primary, Color.secondary.opacity(0.5))
      }
    }
  }
#endif
