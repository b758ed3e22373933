#if canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
  import SignInKitFlows
  import SwiftUI

  /// The phone step: a country picker (names in the person's language, the device's country
  /// first chosen) and the number.
  ///
  /// - Concurrency: a SwiftUI view, on the main actor.
  struct PhoneNumberForm: View {
    @Bindable var flow: SignInFlow
    @Environment(\.signInTheme) private var theme
    @Environment(\.locale) private var locale

    var body: some View {
      let strings = flow.strings
      Text(strings(.phoneMethod)).font(theme.titleFont).accessibilityAddTraits(.isHeader)
      CountryPicker(label: strings(.countryField), callingCode: $flow.countryCode)
      FormField(label: strings(.phoneField), text: $flow.phoneNumber, kind: .phone)
      Button(action: { Task { await flow.submit() } }) { Text(strings(.sendCodeButton)) }
        .buttonStyle(ThemedButtonStyle())
      Button(strings(.backButton)) { flow.cancel() }
    }
  }

  /// The country of a phone number, as its calling code.
  struct CountryPicker: View {
    let label: String
    @Binding var callingCode: String
    @State private var region = ""
    @Environment(\.locale) private var locale

    var body: some View {
      Picker(label, selection: $region) {
        ForEach(PhoneCountry.all(sortedFor: locale)) { country in
          Text("\(country.name(in: locale)) +\(country.callingCode)").tag(country.regionCode)
        }
      }
      .onAppear {
        guard region.isEmpty else { return }
        let country = PhoneCountry.current(locale) ?? PhoneCountry.all(sortedFor: locale)[0]
        region = country.regionCode
        if callingCode.isEmpty { callingCode = country.callingCode }
      }
      .onChange(of: region) { _, picked in
        if let country = PhoneCountry.all(sortedFor: locale).first(where: { $0.regionCode == picked }) {
          callingCode = country.callingCode
        }
      }
    }
  }

  /// A texted code: the prompt naming where it went, and the field iOS fills from Messages.
  struct CodeForm: View {
    @Bindable var flow: SignInFlow
    let prompt: String
    @Environment(\.signInTheme) private var theme

    var body: some View {
      let strings = flow.strings
      Text(prompt).font(theme.bodyFont)
      FormField(label: strings(.codeField), text: $flow.code, kind: .oneTimeCode)
      Button(action: { Task { await flow.submit() } }) { Text(strings(.verifyButton)) }
        .buttonStyle(ThemedButtonStyle())
      Button(strings(.backButton)) { flow.cancel() }
    }
  }
#endif
