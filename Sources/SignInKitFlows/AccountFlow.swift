import Foundation
import Observation
import SignInKit

/// The signed-in user's account as account screens show it: the profile (name, picture), the
/// linked sign-in methods (link, unlink), passkeys (add, remove), second factors (an
/// authenticator app with its QR code, a phone, remove), email and password, signing out and
/// deleting the account.
///
/// A change the backend allows only after a recent sign-in (a new password, a new email, a
/// deletion) moves to ``Step/reauthenticate(for:)``; the person signs in again (their password
/// with ``submit()``, or a linked provider with ``reauthenticate(with:)``), and the change they
/// asked for is made then, without asking twice. ``cancel()`` goes back with no message and
/// makes no change.
///
/// - Concurrency: `@MainActor`. Each action awaits `Auth` (an actor of its own) and comes back
///   here; ``isBusy`` is true exactly while that call runs, and another action meanwhile does
///   nothing. Cancelling the task that awaits an action cancels the call to `Auth`.
@MainActor @Observable public final class AccountFlow {
  /// A change the backend allows only after a recent sign-in.
  public enum SensitiveChange: Sendable, Equatable {
    case changeEmail
    case changePassword
    case deleteAccount
  }

  /// Where the account screens stand.
  public enum Step: Sendable, Equatable {
    /// The account: profile, methods, passkeys, factors.
    case overview
    /// The backend asks for a recent sign-in before it makes `change`; the account's password
    /// signs in again.
    case reauthenticate(for: SensitiveChange)
    /// A TOTP factor is being added: `uri` is the `otpauth://` URI to show as a QR code; the
    /// app's first code finishes it.
    case authenticatorApp(uri: URL)
    /// An SMS factor is being added: the number to text.
    case phoneFactorNumber
    /// An SMS factor is being added: the code texted to `sentTo` (all but its last four digits
    /// hidden).
    case phoneFactorCode(sentTo: String)
    /// Signed out, or the account was deleted.
    case signedOut
  }

  /// The step shown now.
  public private(set) var step: Step = .overview
  /// The signed-in user as last read; `nil` once signed out.
  public private(set) var user: User?
  /// True exactly while a call to `Auth` runs.
  public private(set) var isBusy = false
  /// What went wrong with the last action, in words a person can act on.
  public private(set) var errorMessage: String?
  /// What the last action did, when it says something (an email sent to confirm a new address).
  public private(set) var notice: String?

  /// The display name field of the profile.
  public var displayName = ""
  /// The picture field of the profile: the web address of the picture, or empty for none.
  public var photoURL = ""
  /// The new email field.
  public var newEmail = ""
  /// The new password field.
  public var newPassword = ""
  /// The password field of ``Step/reauthenticate(for:)``.
  public var password = ""
  /// The phone number field of ``Step/phoneFactorNumber``, as ``SignInFlow/phoneNumber`` takes it.
  public var phoneNumber = ""
  /// The country calling code put before a ``phoneNumber`` without one.
  public var countryCode = ""
  /// The code field of the factor steps.
  public var code = ""
  /// The issuer an authenticator app shows beside the account (the app's name).
  public let issuer: String
  /// The language of every message; the person's preferred one by default.
  public var strings = FlowStrings.preferred

  /// A change that waits for a recent sign-in, with what it changes to.
  private enum Sensitive {
    case deleteAccount
    case changePassword(String)
    case changeEmail(String)

    var kind: SensitiveChange {
      switch self {
      case .deleteAccount: .deleteAccount
      case .changePassword: .changePassword
      case .changeEmail: .changeEmail
      }
    }
  }

  @ObservationIgnored private let auth: Auth
  @ObservationIgnored private let providers: [any SignInProvider]
  @ObservationIgnored private let passkeys: (any PasskeyAuthenticator)?
  @ObservationIgnored private var waiting: Sensitive?
  @ObservationIgnored private var totpSecret: TOTPSecret?
  @ObservationIgnored private var phoneEnrollment: PhoneVerification?

  /// The account of `auth`'s signed-in user.
  ///
  /// - Parameters:
  ///   - auth: the session whose account this is.
  ///   - issuer: the name an authenticator app shows beside the account.
  ///   - providers: the identity providers the account can link, and sign in again with.
  ///   - passkeys: the device's passkeys, for ``addPasskey(named:)``.
  public init(
    auth: Auth, issuer: String, providers: [any SignInProvider] = [], passkeys: (any PasskeyAuthenticator)? = nil
  ) {
    self.auth = auth
    self.issuer = issuer
    self.providers = providers
    self.passkeys = passkeys
    user = auth.currentUser
    displayName = user?.displayName ?? ""
    photoURL = user?.photoURL?.absoluteString ?? ""
    if user == nil { step = .signedOut }
  }

  // MARK: - Profile and methods

  /// Saves ``displayName`` and ``photoURL`` (an empty one removes it).
  public func saveProfile() async {
    let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
    let address = photoURL.trimmingCharacters(in: .whitespacesAndNewlines)
    var picture: URL?
    if !address.isEmpty {
      guard let url = URL(string: address), ["https", "http"].contains(url.scheme?.lowercased()), url.host != nil
      else {
        errorMessage = strings(.notAPictureAddress, address)
        return
      }
      picture = url
    }
    await run { [auth, picture] in try await auth.updateProfile(displayName: name, photoURL: picture) }
  }

  /// Adds `provider` to the ways to sign in: its sheet or browser, then the link.
  public func link(_ provider: ProviderID) async {
    guard let found = await self.provider(provider) else { return }
    await run { [auth] in try await auth.link(with: found).user }
  }

  /// Adds a passkey of the device's authenticator, named `name` in the account's list.
  public func addPasskey(named name: String) async {
    guard let passkeys else {
      errorMessage = strings(.noPasskeySetUp)
      return
    }
    await run { [auth] in try await auth.enrollPasskey(named: name, using: passkeys) }
  }

  /// Removes `provider` from the ways to sign in; the last way in cannot go.
  public func unlink(_ provider: ProviderID) async {
    guard let user, user.providers.count > 1 else {
      errorMessage = strings(.onlyWayIn)
      return
    }
    await run { [auth] in try await auth.unlink(provider) }
  }

  /// Removes the passkey `credentialID`.
  public func removePasskey(_ credentialID: String) async {
    await run { [auth] in try await auth.removePasskey(credentialID: credentialID) }
  }

  // MARK: - Email and password

  /// Sends a link to ``newEmail``; the address changes when the link is opened.
  public func changeEmail() async {
    let email = newEmail.trimmingCharacters(in: .whitespacesAndNewlines)
    guard FieldChecks.isEmail(email) else {
      errorMessage = email.isEmpty ? strings(.enterEmail) : strings(.notAnEmail, email)
      return
    }
    await sensitive(.changeEmail(email))
  }

  /// Sets ``newPassword``, once it meets the project's password policy.
  public func changePassword() async {
    guard !isBusy else { return }
    isBusy = true
    let problem = await FieldChecks.newPasswordProblem(newPassword, auth: auth, in: strings)
    isBusy = false
    if let problem {
      errorMessage = problem
      return
    }
    await sensitive(.changePassword(newPassword))
  }

  // MARK: - Second factors

  /// Starts adding an authenticator app: ``Step/authenticatorApp(uri:)`` shows its QR code.
  public func addAuthenticatorApp() async {
    let account = user?.email ?? user?.phoneNumber ?? user?.uid ?? ""
    guard let secret = await calling({ [auth] in try await auth.startTOTPEnrollment() }) else { return }
    totpSecret = secret
    code = ""
    step = .authenticatorApp(uri: secret.otpauthURI(accountName: account, issuer: issuer))
  }

  /// Signs in again with the linked `provider` in ``Step/reauthenticate(for:)``, then makes the
  /// change that waited.
  public func reauthenticate(with provider: ProviderID) async {
    guard case .reauthenticate = step, let waiting, !isBusy else { return }
    guard let found = await self.provider(provider) else { return }
    guard await calling({ [auth] in try await auth.reauthenticate(with: found) }) != nil else { return }
    self.waiting = nil
    step = .overview
    await perform(waiting)
  }

  /// Starts adding a phone as a second factor.
  public func addPhoneFactor() {
    errorMessage = nil
    step = .phoneFactorNumber
  }

  /// Removes the second factor `enrollmentID`.
  public func removeSecondFactor(_ enrollmentID: String) async {
    await run { [auth] in try await auth.unenrollSecondFactor(enrollmentID) }
  }

  // MARK: - Signing out and deleting

  /// Signs out of this device.
  public func signOut() async {
    guard await calling({ [auth] in try await auth.signOut() }) != nil else { return }
    user = nil
    step = .signedOut
  }

  /// Deletes the account, after a recent sign-in when the backend asks for one.
  public func deleteAccount() async {
    await sensitive(.deleteAccount)
  }

  // MARK: - The step shown

  /// Acts on the step shown: the password of ``Step/reauthenticate(for:)``, the number or
  /// code of an SMS factor, the first code of an authenticator app.
  public func submit() async {
    guard !isBusy else { return }
    errorMessage = nil
    switch step {
    case .reauthenticate:
      guard let waiting, let email = user?.email else { return }
      guard !password.isEmpty else {
        errorMessage = strings(.enterPassword)
        return
      }
      let password = password
      guard await calling({ [auth] in try await auth.reauthenticate(email: email, password: password) }) != nil
      else { return }
      self.password = ""
      self.waiting = nil
      step = .overview
      await perform(waiting)
    case .authenticatorApp:
      guard let secret = totpSecret, let code = checkedCode() else { return }
      let name = strings(.authenticatorAppFactor)
      await run { [auth] in try await auth.finishTOTPEnrollment(secret, code: code, displayName: name) }
      if errorMessage == nil { totpSecret = nil }
    case .phoneFactorNumber:
      switch FieldChecks.e164(phoneNumber, countryCode: countryCode) {
      case .failure(let problem):
        errorMessage = problem.message(in: strings)
      case .success(let number):
        guard let sent = await calling({ [auth] in try await auth.startPhoneEnrollment(phoneNumber: number) })
        else { return }
        phoneEnrollment = sent
        code = ""
        step = .phoneFactorCode(sentTo: MultiFactorInfo.masked(number))
      }
    case .phoneFactorCode:
      guard let enrollment = phoneEnrollment, let code = checkedCode() else { return }
      let name = strings(.phoneFactor)
      await run { [auth] in try await auth.finishPhoneEnrollment(enrollment, code: code, displayName: name) }
      if errorMessage == nil { phoneEnrollment = nil }
    case .overview, .signedOut:
      break
    }
  }

  /// Goes back to the account with no message and no change.
  public func cancel() {
    errorMessage = nil
    guard step != .signedOut else { return }
    waiting = nil
    totpSecret = nil
    phoneEnrollment = nil
    password = ""
    code = ""
    step = .overview
  }

  // MARK: - Private

  /// Makes `change`, or asks for a recent sign-in first when the backend wants one.
  private func sensitive(_ change: Sensitive) async {
    guard !isBusy else { return }
    errorMessage = nil
    notice = nil
    do {
      isBusy = true
      defer { isBusy = false }
      try await make(change)
    } catch let error as AuthError where error.code == .requiresRecentLogin {
      waiting = change
      password = ""
      step = .reauthenticate(for: change.kind)
    } catch {
      report(error)
    }
  }

  /// Makes the change that waited for the sign-in just made.
  private func perform(_ change: Sensitive) async {
    do {
      isBusy = true
      defer { isBusy = false }
      try await make(change)
    } catch {
      report(error)
    }
  }

  private func make(_ change: Sensitive) async throws {
    switch change {
    case .deleteAccount:
      try await auth.deleteAccount()
      user = nil
      step = .signedOut
    case .changePassword(let password):
      user = try await auth.updatePassword(password)
      newPassword = ""
      notice = strings(.passwordChanged)
    case .changeEmail(let email):
      try await auth.sendEmailVerification(beforeUpdatingEmail: email)
      newEmail = ""
      notice = strings(.emailChangeSent, email)
    }
  }

  /// The app's provider `id`, or `nil` with a message saying the app has none.
  private func provider(_ id: ProviderID) async -> (any SignInProvider)? {
    if let provider = await SignInFlow.provider(id, among: providers) { return provider }
    errorMessage = strings(.noProviderSetUp, SignInFlow.name(of: id, in: strings))
    return nil
  }

  /// Runs `call`, which answers with the user as changed, with ``isBusy`` set.
  private func run(_ call: @Sendable () async throws -> User) async {
    if let changed = await calling(call) {
      user = changed
      displayName = changed.displayName ?? ""
      photoURL = changed.photoURL?.absoluteString ?? ""
      step = .overview
    }
  }

  /// Runs `call` with ``isBusy`` set; its error becomes ``errorMessage``.
  private func calling<T: Sendable>(_ call: @Sendable () async throws -> T) async -> T? {
    guard !isBusy else { return nil }
    isBusy = true
    defer { isBusy = false }
    errorMessage = nil
    do {
      return try await call()
    } catch {
      report(error)
      return nil
    }
  }

  private func report(_ error: any Error) {
    if error is CancellationError { return }
    let error = AuthError.wrapping(error)
    guard error.code != .cancelled, error.code != .userCancelled else { return }
    errorMessage = SignInFlowMessages.message(for: error, in: strings)
  }

  private func checkedCode() -> String? {
    guard let digits = FieldChecks.code(code) else {
      errorMessage = strings(.enterCode)
      return nil
    }
    return digits
  }
}
