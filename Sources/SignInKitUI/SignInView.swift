#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKit
  import SignInKitFlows
  import SwiftUI

  /// A whole sign-in screen over a ``SignInKitFlows/SignInFlow``: the methods the app offers
  /// (provider buttons, email and password, an email link, phone, passkey), each method's form,
  /// the second-factor and linking-conflict sheets, the error line, and "signed in". It only
  /// shows the flow and hands it what the person typed and tapped; the flow calls `Auth`.
  ///
  /// ```swift
  /// SignInView(flow: SignInFlow(
  ///   auth: auth, methods: [.identityProvider(.apple), .identityProvider(.google), .emailPassword, .phone],
  ///   providers: [google]))
  /// ```
  ///
  /// With ``SignInKitFlows/SignInFlow/Method/passkey`` among the methods, the device's passkeys
  /// are offered in the email field's QuickType bar (AutoFill) while the screen is shown.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct SignInView: View {
    @State private var flow: SignInFlow
    /// Google's "G" logo from the app's assets, for ``GoogleSignInButton``.
    private let googleLogo: Image?
    @Environment(\.signInTheme) private var theme

    public init(flow: SignInFlow, googleLogo: Image? = nil) {
      _flow = State(initialValue: flow)
      self.googleLogo = googleLogo
    }

    public var body: some View {
      ScrollView {
        VStack(alignment: .leading, spacing: 16) {
          step
          if let message = flow.errorMessage {
            Text(message).font(theme.bodyFont).foregroundStyle(theme.error)
              .accessibilityAddTraits(.updatesFrequently)
          }
        }
        .padding()
      }
      .disabled(flow.isBusy)
      .overlay {
        if flow.isBusy { ProgressView().accessibilityLabel(Text(flow.strings(.pleaseWait))) }
      }
      .sheet(isPresented: showsSecondFactor) { SecondFactorSheet(flow: flow) }
      .sheet(isPresented: showsConflict) { LinkingConflictSheet(flow: flow, googleLogo: googleLogo) }
      .task { await flow.offerPasskeysInAutoFill() }
    }

    @ViewBuilder private var step: some View {
      let strings = flow.strings
      switch flow.step {
      case .chooseMethod(let methods):
        MethodList(flow: flow, methods: methods, googleLogo: googleLogo)
      case .email(let mode):
        EmailPasswordForm(flow: flow, mode: mode)
      case .emailLinkAddress:
        EmailLinkForm(flow: flow)
      case .emailLinkSent(let address):
        Notice(title: strings(.emailLinkButton), text: strings(.emailLinkSent, address), flow: flow)
      case .passwordResetSent(let address):
        Notice(title: strings(.forgotPasswordTitle), text: strings(.resetLinkSent, address), flow: flow)
      case .phoneNumber:
        PhoneNumberForm(flow: flow)
      case .phoneCode(let sentTo):
        CodeForm(flow: flow, prompt: strings(.codeSentTo, sentTo))
      case .linkingConflict, .secondFactor:
        // Shown in a sheet over the methods.
        MethodList(flow: flow, methods: flow.methods, googleLogo: googleLogo)
      case .signedIn(let user):
        Text(strings(.signedInAs, user.displayName ?? user.email ?? user.phoneNumber ?? user.uid))
          .font(theme.titleFont)
      }
    }

    private var showsSecondFactor: Binding<Bool> {
      Binding {
        if case .secondFactor = flow.step { true } else { false }
      } set: { shown in
        // Closed by the person (a swipe): back to the step before, with no message.
        if !shown, case .secondFactor = flow.step { flow.cancel() }
      }
    }

    private var showsConflict: Binding<Bool> {
      Binding {
        if case .linkingConflict = flow.step { true } else { false }
      } set: { shown in
        if !shown, case .linkingConflict = flow.step { flow.cancel() }
      }
    }
  }

  /// The methods to choose from: brand buttons first, then the forms'.
  struct MethodList: View {
    let flow: SignInFlow
    let methods: [SignInFlow.Method]
    let googleLogo: Image?
    @Environment(\.signInTheme) private var theme

    var body: some View {
      let strings = flow.strings
      Text(strings(.chooseMethodTitle)).font(theme.titleFont).accessibilityAddTraits(.isHeader)
      ForEach(Array(methods.enumerated()), id: \.offset) { _, method in
        switch method {
        case .identityProvider(.apple):
          #if canImport(AuthenticationServices)
            AppleSignInButton(flow: flow)
          #else
            ProviderButton(.apple, strings: strings) { choose(method) }
          #endif
        case .identityProvider(.google):
          GoogleSignInButton(logo: googleLogo, strings: strings) { choose(method) }
        case .identityProvider(let provider):
          ProviderButton(provider, strings: strings) { choose(method) }
        case .passkey:
          ProviderButton(.passkey, strings: strings) { choose(method) }
        case .emailPassword:
          ProviderButton(.password, strings: strings) { choose(method) }
        case .emailLink:
          ProviderButton(.emailLink, strings: strings) { choose(method) }
        case .phone:
          ProviderButton(.phone, strings: strings) { choose(method) }
        }
      }
    }

    private func choose(_ method: SignInFlow.Method) {
      Task { await flow.choose(method) }
    }
  }

  /// A sent link: what was sent, and the way back.
  struct Notice: View {
    let title: String
    let text: String
    let flow: SignInFlow
    @Environment(\.signInTheme) private var theme

    var body: some View {
      Text(title).font(theme.titleFont).accessibilityAddTraits(.isHeader)
      Text(text).font(theme.bodyFont)
      Button(flow.strings(.backButton)) { flow.cancel() }.buttonStyle(ThemedButtonStyle())
    }
  }
#endif
