import Foundation
import SignInKit
import SignInKitFlows

/// `start`: the REPL as one more screen over `SignInFlow`. Each step is asked in words, what the
/// person types goes in the flow's fields, and the flow decides what comes next: the same checks,
/// messages and steps as SignInKitUI's `SignInView`.
extension REPLSession {
  /// A flow offering every method the REPL can sign in with by itself.
  func makeSignInFlow() async -> SignInFlow {
    let auth = auth
    let passkeys = try? passkeyAuthenticator()
    let settings = ActionCodeSettings(continueURL: Self.defaultContinueURL, handlesCodeInApp: true)
    needsMainActor()
    return await MainActor.run {
      let flow = SignInFlow(
        auth: auth, methods: [.emailPassword, .emailLink, .phone, .passkey], passkeys: passkeys,
        emailLinkSettings: settings)
      // The REPL speaks English throughout.
      flow.strings = FlowStrings(language: "en")
      return flow
    }
  }

  /// Asks for each step of `flow` until it ends: signed in, or a link sent. A blank answer goes
  /// back a step; on the first step it ends the walk.
  ///
  /// - Throws: ``SignInKit/AuthError/Code/userCancelled`` when the person went back past the
  ///   first step.
  func walk(_ flow: SignInFlow) async throws {
    while true {
      let step = await flow.step
      switch step {
      case .signedIn(let user):
        await say("signed in as \(TranscriptFormatter.who(user))")
        return
      case .emailLinkSent(let address):
        await say("sign-in link sent to \(address); see 'mailbox \(address)', then 'signin-link \(address) LINK'")
        return
      case .passwordResetSent(let address):
        await say("password reset link sent to \(address); see 'mailbox \(address)'")
        return
      default:
        break
      }
      guard await answer(step, of: flow) else {
        await flow.cancel()
        if await flow.step == step {
          throw AuthError(.userCancelled, "Nothing was chosen; nothing changed.")
        }
        continue
      }
      if let message = await flow.errorMessage { await say("error: \(message)") }
    }
  }

  /// Asks what `step` needs and acts on it. Returns `false` when the person gave a blank answer
  /// (or the input ended): go back a step.
  private func answer(_ step: SignInFlow.Step, of flow: SignInFlow) async -> Bool {
    let strings = await flow.strings
    switch step {
    case .chooseMethod(let methods):
      let picked = await pick(
        from: methods, titled: strings(.chooseMethodTitle) + ":", prompt: "Choice",
        naming: { Self.name(of: $0, in: strings) })
      guard let picked else { return false }
      if let method = picked { await flow.choose(method) }
    case .email(let mode):
      return await answerEmail(mode, of: flow)
    case .emailLinkAddress:
      guard let email = await ask(strings(.emailField) + ": ") else { return false }
      await MainActor.run { flow.email = email }
      await flow.submit()
    case .phoneNumber:
      guard let number = await ask(strings(.phoneField) + " (+ and country code, or the national number): ")
      else { return false }
      var country = ""
      if !number.hasPrefix("+") {
        guard let code = await ask(strings(.countryField) + " calling code (44 for the UK): ") else { return false }
        country = code
      }
      await MainActor.run {
        flow.phoneNumber = number
        flow.countryCode = country
      }
      await flow.submit()
    case .phoneCode(let sentTo):
      await showText()
      return await answerCode(strings(.codeSentTo, sentTo), of: flow)
    case .secondFactor(let factors, nil):
      let picked = await pick(
        from: factors, titled: strings(.chooseSecondFactor), prompt: "Factor", naming: TranscriptFormatter.describe)
      guard let picked else { return false }
      if let factor = picked { await flow.chooseSecondFactor(factor) }
    case .secondFactor(_, let chosen?):
      if chosen.kind == .phone { await showText() }
      let prompt =
        chosen.kind == .phone ? strings(.codeSentTo, chosen.phoneNumber ?? "") : strings(.authenticatorCode)
      return await answerCode(prompt, of: flow)
    case .linkingConflict(let email, let provider, let methods):
      await say(strings(.conflictBody, email, SignInFlow.name(of: provider, in: strings)))
      if !methods.isEmpty {
        await say(strings(.conflictMethods, strings.list(methods.map { SignInFlow.name(of: $0, in: strings) })))
      }
      guard let password = await input.secret(prompt: strings(.passwordField) + ": "), !password.isEmpty else {
        return false
      }
      await MainActor.run { flow.password = password }
      await flow.submit()
    case .emailLinkSent, .passwordResetSent, .signedIn:
      break
    }
    return true
  }

  /// The email step: the address (or `signup` / `forgot` to switch what it does), then the
  /// password.
  private func answerEmail(_ mode: SignInFlow.EmailMode, of flow: SignInFlow) async -> Bool {
    let strings = await flow.strings
    let title =
      switch mode {
      case .signIn: strings(.signInTitle) + " (type 'signup' to create an account, 'forgot' to reset the password)"
      case .signUp: strings(.signUpTitle)
      case .forgotPassword: strings(.forgotPasswordTitle)
      }
    await say(title)
    guard let email = await ask(strings(.emailField) + ": ") else { return false }
    switch (mode, email.lowercased()) {
    case (.signIn, "signup"):
      await flow.switchEmailMode(to: .signUp)
      return true
    case (.signIn, "forgot"):
      await flow.switchEmailMode(to: .forgotPassword)
      return true
    default:
      break
    }
    var password = ""
    if mode != .forgotPassword {
      guard let typed = await input.secret(prompt: strings(.passwordField) + ": "), !typed.isEmpty else {
        return false
      }
      password = typed
    }
    await MainActor.run {
      flow.email = email
      flow.password = password
    }
    await flow.submit()
    return true
  }

  private func answerCode(_ prompt: String, of flow: SignInFlow) async -> Bool {
    await say(prompt)
    guard let code = await ask("Code: ") else { return false }
    await MainActor.run { flow.code = code }
    await flow.submit()
    return true
  }

  /// On a backend that shows its texts (the embedded one, the emulator), the newest, as the
  /// phone would show it.
  private func showText() async {
    guard backend.showsTextedCodes, let text = try? await backend.texts(to: nil).last else { return }
    await say("text to \(text.to): \(text.code)", fields: ["code": text.code])
  }

  /// Lists `items` under `title`, numbered, and reads the person's number: `nil` for a blank
  /// answer (go back), `.some(nil)` for one that is not on the list (said, and asked again).
  private func pick<Item>(
    from items: [Item], titled title: String, prompt: String, naming name: (Item) -> String
  ) async -> Item?? {
    await say(title)
    for (index, item) in items.enumerated() { await say("  \(index + 1). \(name(item))") }
    guard let choice = await ask("\(prompt) (1-\(items.count)): ") else { return nil }
    guard let number = Int(choice), items.indices.contains(number - 1) else {
      await say("error: '\(choice)' is not a number from the list.")
      return .some(nil)
    }
    return items[number - 1]
  }

  /// The next line, trimmed; `nil` for a blank one or the end of input.
  private func ask(_ prompt: String) async -> String? {
    guard let line = await input.line(prompt: prompt)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
      return nil
    }
    return line
  }

  private static func name(of method: SignInFlow.Method, in strings: FlowStrings) -> String {
    switch method {
    case .emailPassword: strings(.emailPasswordMethod)
    case .emailLink: strings(.emailLinkButton)
    case .phone: strings(.phoneMethod)
    case .passkey: strings(.signInWithPasskey)
    case .identityProvider(let provider): strings(.continueWithProvider, SignInFlow.name(of: provider, in: strings))
    }
  }
}
