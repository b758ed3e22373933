#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKit
  import SignInKitFlows
  import SwiftUI

  /// The account screen over an ``SignInKitFlows/AccountFlow``: the profile (name and picture),
  /// the ways to sign in (remove one, add one of `linkable`), passkeys (add, remove), two-step
  /// verification (an authenticator app with its QR code, a phone, remove), email and password,
  /// signing out, and deleting the account after a confirmation. A change the backend allows
  /// only after a recent sign-in opens a sheet that signs in again first.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  public struct AccountView: View {
    @State private var flow: AccountFlow
    private let linkable: [ProviderID]
    private let passkeyName: String
    @State private var confirmsDeletion = false
    @Environment(\.signInTheme) private var theme

    /// - Parameters:
    ///   - flow: the account's flow.
    ///   - linkable: the identity providers the app offers to add (the flow's `providers`).
    ///   - passkeyName: the name a new passkey gets in the account's list (the device's name).
    public init(flow: AccountFlow, linkable: [ProviderID] = [], passkeyName: String = "Passkey") {
      _flow = State(initialValue: flow)
      self.linkable = linkable
      self.passkeyName = passkeyName
    }

    public var body: some View {
      let strings = flow.strings
      Form {
        if let user = flow.user {
          Section(strings(.accountTitle)) {
            FormField(label: strings(.nameField), text: $flow.displayName, kind: .name)
            FormField(label: strings(.photoField), text: $flow.photoURL, kind: .address)
            Button(strings(.saveButton)) { act { await flow.saveProfile() } }
          }
          Section(strings(.waysToSignIn)) {
            ForEach(user.providers, id: \.providerID) { link in
              HStack {
                Text(SignInFlow.name(of: link.providerID, in: strings))
                Spacer()
                Button(strings(.removeButton), role: .destructive) { act { await flow.unlink(link.providerID) } }
              }
            }
            ForEach(linkable.filter { id in !user.providers.contains { $0.providerID == id } }, id: \.self) { id in
              ProviderButton(id, strings: strings) { act { await flow.link(id) } }
            }
          }
          Section(strings(.passkeysTitle)) {
            ForEach(user.passkeys, id: \.credentialID) { passkey in
              HStack {
                Text(passkey.name)
                Spacer()
                Button(strings(.removeButton), role: .destructive) {
                  act { await flow.removePasskey(passkey.credentialID) }
                }
              }
            }
            Button(strings(.addPasskeyButton)) { act { await flow.addPasskey(named: passkeyName) } }
          }
          Section(strings(.secondFactorsTitle)) {
            ForEach(user.secondFactors, id: \.enrollmentID) { factor in
              HStack {
                Text(
                  factor.displayName
                    ?? (factor.kind == .phone ? strings(.phoneFactor) : strings(.authenticatorAppFactor)))
                Spacer()
                Button(strings(.removeButton), role: .destructive) {
                  act { await flow.removeSecondFactor(factor.enrollmentID) }
                }
              }
            }
            Button(strings(.addAuthenticatorButton)) { act { await flow.addAuthenticatorApp() } }
            Button(strings(.addPhoneFactorButton)) { flow.addPhoneFactor() }
          }
          Section(strings(.changeEmailButton)) {
            FormField(label: strings(.newEmailField), text: $flow.newEmail, kind: .email)
            Button(strings(.changeEmailButton)) { act { await flow.changeEmail() } }
          }
          Section(strings(.changePasswordButton)) {
            FormField(label: strings(.newPasswordField), text: $flow.newPassword, kind: .newPassword)
            Button(strings(.changePasswordButton)) { act { await flow.changePassword() } }
          }
          Section {
            if let notice = flow.notice { Text(notice) }
            if let message = flow.errorMessage { Text(message).foregroundStyle(theme.error) }
            Button(strings(.signOutButton)) { act { await flow.signOut() } }
            Button(strings(.deleteAccountButton), role: .destructive) { confirmsDeletion = true }
          }
        } else {
          Text(strings(.signInTitle))
        }
      }
      .disabled(flow.isBusy)
      .confirmationDialog(strings(.deleteAccountConfirm), isPresented: $confirmsDeletion, titleVisibility: .visible) {
        Button(strings(.deleteAccountButton), role: .destructive) { act { await flow.deleteAccount() } }
        Button(strings(.cancelButton), role: .cancel) {}
      }
      .sheet(isPresented: showsStep) { AccountStepSheet(flow: flow) }
    }

    /// Whether a step that needs a sheet is shown; closing it cancels the step.
    private var showsStep: Binding<Bool> {
      Binding {
        switch flow.step {
        case .overview, .signedOut: false
        case .reauthenticate, .authenticatorApp, .phoneFactorNumber, .phoneFactorCode: true
        }
      } set: { shown in
        if !shown { flow.cancel() }
      }
    }

    private func act(_ action: @escaping @MainActor () async -> Void) {
      Task { await action() }
    }
  }

  /// The sheet of a step in the middle of an account change: signing in again, an
  /// authenticator app's QR code and first code, a phone's number and code.
  struct AccountStepSheet: View {
    @Bindable var flow: AccountFlow

    var body: some View {
      let strings = flow.strings
      SheetShell(
        title: title, cancelTitle: strings(.cancelButton), isBusy: flow.isBusy, message: flow.errorMessage,
        cancel: flow.cancel
      ) {
        switch flow.step {
        case .reauthenticate(let change):
          Text(reason(change))
          FormField(label: strings(.passwordField), text: $flow.password, kind: .password)
          Button(strings(.signInButton)) { Task { await flow.submit() } }
          ForEach(flow.user?.providers.map(\.providerID).filter { $0 != .password } ?? [], id: \.self) { id in
            ProviderButton(id, strings: strings) { Task { await flow.reauthenticate(with: id) } }
          }
        case .authenticatorApp(let uri):
          Text(strings(.scanCode))
          QRCodeImage(text: uri.absoluteString)
            .frame(width: 200, height: 200)
            .accessibilityLabel(Text(strings(.scanCode)))
          Text(uri.absoluteString).font(.footnote).textSelection(.enabled)
          FormField(label: strings(.codeField), text: $flow.code, kind: .oneTimeCode)
          Button(strings(.verifyButton)) { Task { await flow.submit() } }
        case .phoneFactorNumber:
          CountryPicker(label: strings(.countryField), callingCode: $flow.countryCode)
          FormField(label: strings(.phoneField), text: $flow.phoneNumber, kind: .phone)
          Button(strings(.sendCodeButton)) { Task { await flow.submit() } }
        case .phoneFactorCode(let sentTo):
          Text(strings(.codeSentTo, sentTo))
          FormField(label: strings(.codeField), text: $flow.code, kind: .oneTimeCode)
          Button(strings(.verifyButton)) { Task { await flow.submit() } }
        case .overview, .signedOut:
          EmptyView()
        }
      }
    }

    private var title: String {
      switch flow.step {
      case .reauthenticate: flow.strings(.reauthenticateTitle)
      case .authenticatorApp: flow.strings(.addAuthenticatorButton)
      default: flow.strings(.addPhoneFactorButton)
      }
    }

    private func reason(_ change: AccountFlow.SensitiveChange) -> String {
      switch change {
      case .changeEmail: flow.strings(.reauthenticateForEmail)
      case .changePassword: flow.strings(.reauthenticateForPassword)
      case .deleteAccount: flow.strings(.reauthenticateForDeletion)
      }
    }
  }
#endif
