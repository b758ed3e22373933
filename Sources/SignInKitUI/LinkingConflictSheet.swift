#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKit
  import SignInKitFlows
  import SwiftUI

  /// A linking conflict: the person's email already has an account that signs in another way.
  /// It names the account's methods (when the backend tells), asks for its password when it has
  /// one, and offers its providers; signing in to it adds the new provider to it.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct LinkingConflictSheet: View {
    @Bindable var flow: SignInFlow
    let googleLogo: Image?
    @Environment(\.signInTheme) private var theme

    var body: some View {
      let strings = flow.strings
      SheetShell(
        title: strings(.conflictTitle), cancelTitle: strings(.cancelButton), isBusy: flow.isBusy,
        message: flow.errorMessage, cancel: flow.cancel
      ) {
        if case .linkingConflict(let email, let provider, let methods) = flow.step {
          Text(strings(.conflictBody, email, SignInFlow.name(of: provider, in: strings))).font(theme.bodyFont)
          if !methods.isEmpty {
            Text(strings(.conflictMethods, strings.list(methods.map { SignInFlow.name(of: $0, in: strings) })))
              .font(theme.bodyFont).foregroundStyle(.secondary)
          }
          if methods.isEmpty || methods.contains(.password) {
            FormField(label: strings(.passwordField), text: $flow.password, kind: .password)
            Button(action: { Task { await flow.submit() } }) { Text(strings(.signInButton)) }
              .buttonStyle(ThemedButtonStyle())
          }
          ForEach(offered(methods), id: \.self) { existing in
            if existing == .google {
              GoogleSignInButton(logo: googleLogo, strings: strings) { choose(existing) }
            } else {
              ProviderButton(existing, strings: strings) { choose(existing) }
            }
          }
        }
      }
    }

    /// The account's identity providers that the app offers too.
    private func offered(_ methods: [ProviderID]) -> [ProviderID] {
      let offered = flow.methods.compactMap { method -> ProviderID? in
        if case .identityProvider(let id) = method { return id }
        return nil
      }
      return methods.isEmpty ? offered : methods.filter(offered.contains)
    }

    private func choose(_ provider: ProviderID) {
      Task { await flow.choose(.identityProvider(provider)) }
    }
  }
#endif
