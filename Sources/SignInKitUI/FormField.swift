#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SwiftUI

  /// One labelled text field of the screens: the label above (read by VoiceOver as the field's
  /// name), the theme's field background and corner radius.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct FormField: View {
    /// What the field holds, for the keyboard and AutoFill.
    enum Kind {
      case email
      case password
      case newPassword
      case phone
      case oneTimeCode
      case name
      case address
    }

    let label: String
    @Binding var text: String
    let kind: Kind
    @Environment(\.signInTheme) private var theme

    var body: some View {
      VStack(alignment: .leading, spacing: 6) {
        Text(label).font(.subheadline).foregroundStyle(.secondary).accessibilityHidden(true)
        field
          .font(theme.bodyFont)
          .padding(12)
          .background(RoundedRectangle(cornerRadius: theme.cornerRadius).fill(theme.fieldBackground))
          .accessibilityLabel(Text(label))
      }
    }

    @ViewBuilder private var field: some View {
      switch kind {
      case .password, .newPassword:
        SecureField(label, text: $text)
          #if os(iOS) || os(visionOS)
            .textContentType(kind == .password ? .password : .newPassword)
          #endif
      default:
        TextField(label, text: $text)
          #if os(iOS) || os(visionOS)
            .textContentType(contentType)
            .keyboardType(keyboard)
            .textInputAutocapitalization(kind == .name ? .words : .never)
          #endif
          .autocorrectionDisabled(kind != .name)
      }
    }

    #if os(iOS) || os(visionOS)
      /// The email field is the username AutoFill offers passkeys in.
      private var contentType: UITextContentType? {
        switch kind {
        case .email: .username
        case .phone: .telephoneNumber
        case .oneTimeCode: .oneTimeCode
        case .name: .name
        case .address: .URL
        case .password: .password
        case .newPassword: .newPassword
        }
      }

      private var keyboard: UIKeyboardType {
        switch kind {
        case .email: .emailAddress
        case .phone: .phonePad
        case .oneTimeCode: .numberPad
        case .address: .URL
        default: .default
        }
      }
    #endif
  }
#endif
