import Foundation
import Observation
import SignInKit

/// One sign-in from start to end, as sign-in screens show it: the method chosen, the form of its
/// step, the call to `Auth`, and the step that follows (a second factor, a code, the signed-in
/// user). A view shows ``step`` and binds its fields; it never calls `Auth` itself.
///
/// Each step checks what it can before it calls: an email's shape, a new password against the
/// project's password policy (`Auth.passwordPolicy()`), a phone number in E.164 form with its
/// country code. Every message is in ``strings``' language. A refused call leaves the step as it was,
/// with ``errorMessage`` saying what to do. ``cancel()`` goes back to the step before, with no
/// message.
///
/// ```swift
/// let flow = SignInFlow(auth: auth, methods: [.emailPassword, .phone])
/// await flow.choose(.emailPassword)
/// flow.email = "ada@example.com"
/// flow.password = "correct horse"
/// await flow.submit()   // flow.step is .signedIn(user), or .secondFactor(…)
/// ```
///
/// - Concurrency: `@MainActor`. ``submit()`` awaits `Auth` (an actor of its own) and comes back
///   here; ``isBusy`` is true exactly while that call runs, and a second ``submit()`` meanwhile
///   does nothing. Cancelling the task that awaits ``submit()`` cancels the call to `Auth`; the
///   step stays where it was.
@MainActor @Observable public final class SignInFlow {
  /// The ways to sign in an app offers, in the order it lists them.
  public enum Method: Sendable, Hashable {
    case emailPassword
    case emailLink
    case phone
    /// One of the flow's `providers` (Google, Apple, GitHub, …): choosing it signs in at once.
    case identityProvider(ProviderID)
    /// A passkey of the flow's `passkeys` authenticator: choosing it signs in at once.
    case passkey
  }

  /// What the email and password step does.
  public enum EmailMode: Sendable, Hashable {
    case signIn
    case signUp
    case forgotPassword
  }

  /// Where the flow stands.
  public enum Step: Sendable, Equatable {
    /// The methods to choose from.
    case chooseMethod([Method])
    /// An email and a password: sign in, sign up, or (email only) ask for a reset link.
    case email(EmailMode)
    /// The address to mail a sign-in link to.
    case emailLinkAddress
    /// A sign-in link went to `to`; the app signs in when it opens the link.
    case emailLinkSent(to: String)
    /// A password reset link went to `to`.
    case passwordResetSent(to: String)
    /// The phone number to text a code to.
    case phoneNumber
    /// The code texted to `sentTo` (all but its last four digits hidden).
    case phoneCode(sentTo: String)
    /// `provider` signed in a person whose email, `email`, belongs to an account that signs in
    /// another way: `methods`, as far as the backend tells (empty when it protects against email
    /// enumeration). Signing in to that account once (its password with ``submit()``, or one of
    /// `methods` with ``choose(_:)``) links `provider` to it, so `provider` signs in to the same
    /// account from then on.
    case linkingConflict(email: String, provider: ProviderID, methods: [ProviderID])
    /// The account asks for a second factor: its enrolled `factors` (phone numbers hidden), and
    /// the one whose code the person enters, once chosen.
    case secondFactor(factors: [MultiFactorInfo], chosen: MultiFactorInfo?)
    /// Done.
    case signedIn(User)
  }

  /// The step shown now.
  public private(set) var step: Step
  /// True exactly while a call to `Auth` runs.
  public private(set) var isBusy = false
  /// What went wrong with the last submit, in words a person can act on; `nil` when it did not.
  public private(set) var errorMessage: String?

  /// The email field of the email steps.
  public var email = ""
  /// The password field of the email step.
  public var password = ""
  /// The phone number field, with or without its `+` and country code (see ``countryCode``).
  public var phoneNumber = ""
  /// The country calling code put before a ``phoneNumber`` that has none, such as `"1"` or `"44"`.
  public var countryCode = ""
  /// The code field of the code steps.
  public var code = ""
  /// The language of every message; the person's preferred one by default.
  public var strings = FlowStrings.preferred

  /// The methods the app offers.
  public let methods: [Method]
  /// Where an email link leads back to: the app's link handler.
  public let emailLinkSettings: ActionCodeSettings?

  @ObservationIgnored private let auth: Auth
  @ObservationIgnored private let providers: [any SignInProvider]
  @ObservationIgnored private let passkeys: (any PasskeyAuthenticator)?
  /// The identity provider's credential a linking conflict links once the account signed in.
  @ObservationIgnored private var pendingLink: ProviderCredential?
  @ObservationIgnored private var previous: [Step] = []
  @ObservationIgnored private var challenge: SecondFactorChallenge?
  @ObservationIgnored private var verification: PhoneVerification?

  /// A flow over `auth` offering `methods`; with one method that has a form it starts on that form.
  ///
  /// - Parameters:
  ///   - auth: the session the flow signs in to.
  ///   - methods: the ways to sign in the app offers, in the order it lists them.
  ///   - providers: the identity providers the ``Method/identityProvider(_:)`` methods name.
  ///   - passkeys: the device's passkeys, for ``Method/passkey``.
  ///   - emailLinkSettings: where a sign-in link leads; needed for ``Method/emailLink``.
  public init(
    auth: Auth, methods: [Method] = [.emailPassword], providers: [any SignInProvider] = [],
    passkeys: (any PasskeyAuthenticator)? = nil, emailLinkSettings: ActionCodeSettings? = nil
  ) {
    self.auth = auth
    self.providers = providers
    self.passkeys = passkeys
    self.methods = methods
    self.emailLinkSettings = emailLinkSettings
    if methods.count == 1, let first = Self.firstStep(of: methods[0]) {
      step = first
    } else {
      step = .chooseMethod(methods)
    }
  }

  // MARK: - Moving between steps

  /// Goes to `method`'s first step; an identity provider or a passkey signs in at once (its
  /// sheet, browser or system prompt), and ends signed in, on a second factor, or on a linking
  /// conflict.
  public func choose(_ method: Method) async {
    if let first = Self.firstStep(of: method) {
      go(to: first)
      return
    }
    guard !isBusy else { return }
    errorMessage = nil
    guard case .identityProvider(let id) = method else {
      guard let passkeys else {
        errorMessage = strings(.noPasskeySetUp)
        return
      }
      await signIn { [auth] in try await auth.signInWithPasskey(using: passkeys) }
      return
    }
    guard let provider = await Self.provider(id, among: providers) else {
      errorMessage = strings(.noProviderSetUp, Self.name(of: id, in: strings))
      return
    }
    await signIn(with: provider)
  }

  /// The first of `providers` whose id is `id`: the one both flows use when an app gives two.
  nonisolated static func provider(_ id: ProviderID, among providers: [any SignInProvider]) async
    -> (any SignInProvider)?
  {
    for candidate in providers where await candidate.id == id { return candidate }
    return nil
  }

  /// How a screen names `provider`: its brand, or the method in `strings`' language.
  public nonisolated static func name(of provider: ProviderID, in strings: FlowStrings) -> String {
    switch provider {
    case .password: strings(.emailPasswordMethod)
    case .phone: strings(.phoneMethod)
    case .google: "Google"
    case .apple: "Apple"
    case .github: "GitHub"
    case .microsoft: "Microsoft"
    case .twitter: "X"
    case .yahoo: "Yahoo"
    case .facebook: "Facebook"
    case .passkey: strings(.passkeysTitle)
    default: provider.rawValue
    }
  }

  /// Signs in with `provider` (a sheet the app presented itself, such as Apple's own button's):
  /// signed in, on a second factor, or on a linking conflict, as with ``choose(_:)``.
  public func signIn(with provider: some SignInProvider) async {
    guard !isBusy else { return }
    errorMessage = nil
    // In a linking conflict, the existing account's provider signs in, then links the new one.
    let pending = pendingLink
    await signIn { [auth] in
      let result = try await auth.signIn(with: provider)
      guard let pending else { return result }
      return try await auth.link(with: pending)
    }
  }

  /// Offers the device's passkeys in the email field's QuickType bar (AutoFill) while the
  /// screen is shown, when the app offers ``Method/passkey``: a pick signs in. ``isBusy`` stays
  /// false while it waits, as the person may type instead.
  ///
  /// - Cancellation: cancelling the awaiting task (the screen going away) ends the offer with no
  ///   message.
  public func offerPasskeysInAutoFill() async {
    guard let passkeys, methods.contains(.passkey) else { return }
    do {
      let result = try await auth.signInWithPasskey(using: passkeys, presentation: .autoFill)
      finishSignIn(result.user)
    } catch {
      let error = AuthError.wrapping(error)
      if !error.code.isCancellation { errorMessage = SignInFlowMessages.message(for: error, in: strings) }
    }
  }

  /// Switches the email step to `mode` (sign in, sign up, forgot password).
  public func switchEmailMode(to mode: EmailMode) {
    guard case .email(let current) = step, current != mode else { return }
    go(to: .email(mode))
  }

  /// Chooses the second factor whose code the person enters. For a phone factor the code is
  /// texted now.
  public func chooseSecondFactor(_ factor: MultiFactorInfo) async {
    guard case .secondFactor(let factors, _) = step, let challenge, !isBusy else { return }
    if factor.kind == .phone {
      let sent = await calling { [auth] in
        try await auth.sendSecondFactorCode(for: challenge, enrollmentID: factor.enrollmentID)
      }
      guard let sent else { return }
      verification = sent
    }
    go(to: .secondFactor(factors: factors, chosen: factor))
  }

  /// Goes back to the step before, with no message: a closed sheet, a back button. On the first
  /// step it stays there.
  public func cancel() {
    errorMessage = nil
    guard let last = previous.popLast() else { return }
    step = last
    code = ""
  }

  // MARK: - Submitting

  /// Acts on the step shown: checks its fields, calls `Auth`, and moves to the step that
  /// follows, or stays with ``errorMessage`` set.
  public func submit() async {
    guard !isBusy else { return }
    errorMessage = nil
    switch step {
    case .email(.signIn):
      guard let email = checkedEmail(), let password = checkedPassword() else { return }
      await signIn { [auth] in try await auth.signIn(email: email, password: password) }
    case .email(.signUp):
      guard let email = checkedEmail(), let password = checkedPassword() else { return }
      isBusy = true
      let problem = await FieldChecks.newPasswordProblem(password, auth: auth, in: strings)
      isBusy = false
      if let problem {
        errorMessage = problem
        return
      }
      await signIn { [auth] in try await auth.signUp(email: email, password: password) }
    case .email(.forgotPassword):
      guard let email = checkedEmail() else { return }
      if await calling({ [auth] in try await auth.sendPasswordReset(to: email) }) != nil {
        go(to: .passwordResetSent(to: email))
      }
    case .emailLinkAddress:
      guard let email = checkedEmail() else { return }
      guard let settings = emailLinkSettings else {
        errorMessage = strings(.noEmailLinkSettings)
        return
      }
      if await calling({ [auth] in try await auth.sendSignInLink(to: email, settings: settings) }) != nil {
        go(to: .emailLinkSent(to: email))
      }
    case .phoneNumber:
      guard let number = checkedPhoneNumber() else { return }
      guard let sent = await calling({ [auth] in try await auth.verifyPhoneNumber(number) }) else { return }
      verification = sent
      go(to: .phoneCode(sentTo: MultiFactorInfo.masked(number)))
    case .phoneCode:
      guard let verification, let code = checkedCode() else { return }
      await signIn { [auth] in try await auth.signIn(with: verification, code: code) }
    case .secondFactor(_, let chosen?):
      guard let challenge, let code = checkedCode() else { return }
      if chosen.kind == .phone {
        guard let verification else { return }
        await signIn { [auth] in try await auth.resolveSignIn(challenge, verification: verification, code: code) }
      } else {
        await signIn { [auth] in
          try await auth.resolveSignIn(challenge, enrollmentID: chosen.enrollmentID, code: code)
        }
      }
    case .secondFactor(_, nil):
      errorMessage = strings(.chooseSecondFactor)
    case .linkingConflict(let email, _, _):
      guard let credential = pendingLink, let password = checkedPassword() else { return }
      await signIn { [auth] in
        _ = try await auth.signIn(email: email, password: password)
        return try await auth.link(with: credential)
      }
    case .chooseMethod, .emailLinkSent, .passwordResetSent, .signedIn:
      break
    }
  }

  // MARK: - Private

  /// The form `method` starts with; an identity provider has none.
  private static func firstStep(of method: Method) -> Step? {
    switch method {
    case .emailPassword: .email(.signIn)
    case .emailLink: .emailLinkAddress
    case .phone: .phoneNumber
    case .identityProvider, .passkey: nil
    }
  }

  private func go(to next: Step) {
    guard next != step else { return }
    previous.append(step)
    step = next
    errorMessage = nil
    code = ""
  }

  /// Runs `call` with ``isBusy`` set; its error becomes ``errorMessage``.
  ///
  /// - Returns: the call's result, or `nil` when it failed (or was cancelled: no message then).
  private func calling<T: Sendable>(_ call: @Sendable () async throws -> T) async -> T? {
    isBusy = true
    defer { isBusy = false }
    do {
      return try await call()
    } catch let error as AuthError where error.code == .secondFactorRequired {
      if let challenge = error.secondFactor { askForSecondFactor(challenge) }
      return nil
    } catch let error as AuthError
      where error.code == .accountExistsWithDifferentCredential && error.email != nil && error.updatedCredential != nil
    {
      pendingLink = error.updatedCredential
      email = error.email ?? ""
      // What the backend tells of the account's methods; nothing when it will not say.
      let methods = (try? await auth.signInMethods(forEmail: email)) ?? []
      go(
        to: .linkingConflict(
          email: email, provider: error.updatedCredential?.providerID ?? .password, methods: methods))
      return nil
    } catch is CancellationError {
      return nil
    } catch {
      let error = AuthError.wrapping(error)
      if !error.code.isCancellation { errorMessage = SignInFlowMessages.message(for: error, in: strings) }
      return nil
    }
  }

  /// A sign-in call (a first factor, a second, a link): signed in, or on to the step the
  /// account asks for.
  private func signIn(_ call: @Sendable () async throws -> SignInResult) async {
    if let result = await calling(call) { finishSignIn(result.user) }
  }

  private func finishSignIn(_ user: User) {
    password = ""
    pendingLink = nil
    challenge = nil
    verification = nil
    go(to: .signedIn(user))
    previous.removeAll()
  }

  private func askForSecondFactor(_ challenge: SecondFactorChallenge) {
    self.challenge = challenge
    let factors = challenge.factors.map { factor in
      var shown = factor
      shown.phoneNumber = factor.phoneNumber.map(MultiFactorInfo.masked)
      return shown
    }
    go(to: .secondFactor(factors: factors, chosen: factors.count == 1 && factors[0].kind == .totp ? factors[0] : nil))
  }

  private func checkedEmail() -> String? {
    let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
    guard FieldChecks.isEmail(email) else {
      errorMessage = email.isEmpty ? strings(.enterEmail) : strings(.notAnEmail, email)
      return nil
    }
    return email
  }

  private func checkedPassword() -> String? {
    guard !password.isEmpty else {
      errorMessage = strings(.enterPassword)
      return nil
    }
    return password
  }

  private func checkedPhoneNumber() -> String? {
    switch FieldChecks.e164(phoneNumber, countryCode: countryCode) {
    case .success(let number): return number
    case .failure(let problem):
      errorMessage = problem.message(in: strings)
      return nil
    }
  }

  private func checkedCode() -> String? {
    guard let digits = FieldChecks.code(code) else {
      errorMessage = strings(.enterCode)
      return nil
    }
    return digits
  }
}
