#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKit
  import SignInKitFlows
  import SwiftUI

  /// The second step of a sign-in: the account's factors to choose from (an authenticator app,
  /// a phone with all but its last four digits hidden), then the code.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct SecondFactorSheet: View {
    @Bindable var flow: SignInFlow
    @Environment(\.signInTheme) private var theme

    var body: some View {
      let strings = flow.strings
      SheetShell(
        title: strings(.secondFactorTitle), cancelTitle: strings(.cancelButton), isBusy: flow.isBusy,
        message: flow.errorMessage, cancel: flow.cancel
      ) {
        if case .secondFactor(let factors, let chosen) = flow.step {
          if let chosen {
            Text(
              chosen.kind == .totp ? strings(.authenticatorCode) : strings(.codeSentTo, chosen.phoneNumber ?? "")
            )
            .font(theme.bodyFont)
            FormField(label: strings(.codeField), text: $flow.code, kind: .oneTimeCode)
            Button(action: { Task { await flow.submit() } }) { Text(strings(.verifyButton)) }
              .buttonStyle(ThemedButtonStyle())
          } else {
            Text(strings(.chooseSecondFactor)).font(theme.bodyFont)
            ForEach(factors, id: \.enrollmentID) { factor in
              Button(action: { Task { await flow.chooseSecondFactor(factor) } }) {
                Text(name(of: factor))
              }
              .buttonStyle(ThemedButtonStyle())
            }
          }
        }
      }
    }

    private func name(of factor: MultiFactorInfo) -> String {
      switch factor.kind {
      case .phone: flow.strings(.textTo, factor.phoneNumber ?? "")
      default: factor.displayName ?? flow.strings(.authenticatorAppFactor)
      }
    }
  }
#endif
