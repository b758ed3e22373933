#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKitFlows
  import SwiftUI

  /// The email step: sign in, create an account, or ask for a reset link, and the links between
  /// the three.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct EmailPasswordForm: View {
    @Bindable var flow: SignInFlow
    let mode: SignInFlow.EmailMode
    @Environment(\.signInTheme) private var theme

    var body: some View {
      let strings = flow.strings
      Text(title).font(theme.titleFont).accessibilityAddTraits(.isHeader)
      FormField(label: strings(.emailField), text: $flow.email, kind: .email)
      if mode != .forgotPassword {
        FormField(
          label: strings(.passwordField), text: $flow.password, kind: mode == .signUp ? .newPassword : .password)
      }
      Button(action: { Task { await flow.submit() } }) { Text(submitTitle) }.buttonStyle(ThemedButtonStyle())
      switch mode {
      case .signIn:
        Button(strings(.forgotPasswordButton)) { flow.switchEmailMode(to: .forgotPassword) }
        Button(strings(.switchToSignUp)) { flow.switchEmailMode(to: .signUp) }
      case .signUp:
        Button(strings(.switchToSignIn)) { flow.switchEmailMode(to: .signIn) }
      case .forgotPassword:
        Button(strings(.backButton)) { flow.cancel() }
      }
    }

    private var title: String {
      switch mode {
      case .signIn: flow.strings(.signInTitle)
      case .signUp: flow.strings(.signUpTitle)
      case .forgotPassword: flow.strings(.forgotPasswordTitle)
      }
    }

    private var submitTitle: String {
      switch mode {
      case .signIn: flow.strings(.signInButton)
      case .signUp: flow.strings(.signUpButton)
      case .forgotPassword: flow.strings(.sendResetLink)
      }
    }
  }

  /// The address a sign-in link goes to.
  struct EmailLinkForm: View {
    @Bindable var flow: SignInFlow
    @Environment(\.signInTheme) private var theme

    var body: some View {
      let strings = flow.strings
      Text(strings(.emailLinkButton)).font(theme.titleFont).accessibilityAddTraits(.isHeader)
      FormField(label: strings(.emailField), text: $flow.email, kind: .email)
      Button(action: { Task { await flow.submit() } }) { Text(strings(.emailLinkButton)) }
        .buttonStyle(ThemedButtonStyle())
      Button(strings(.backButton)) { flow.cancel() }
    }
  }
#endif
