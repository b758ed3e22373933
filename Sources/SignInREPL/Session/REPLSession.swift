import Foundation
import SignInKit
import SignInKitEmbedded

/// Runs parsed commands against an `Auth` and reports through the ``Renderer``. On the embedded
/// backend (and the Firebase emulator) Google and Apple sign-in use ``EmbeddedIdentityProvider``s,
/// so every command works offline.
///
/// - Concurrency: actor; commands run one at a time, in order.
public actor REPLSession {
  public nonisolated let auth: Auth
  let backend: REPLBackend
  let renderer: Renderer
  let input: any InputSource
  let google: EmbeddedIdentityProvider
  let apple: EmbeddedIdentityProvider
  /// Real OpenID issuers to sign in at by default (from `--idp`), by provider.
  let issuers: [ProviderID: IssuerSettings]
  /// The provider for the configured Google issuer, kept so its session is restored and
  /// signed out with the backend's.
  private var configuredGoogle: GoogleProvider?
  private let googleRefreshTokenFile: URL?

  public init(
    auth: Auth, backend: REPLBackend, google: EmbeddedIdentityProvider,
    apple: EmbeddedIdentityProvider, renderer: Renderer, input: any InputSource,
    issuers: [ProviderID: IssuerSettings] = [:], googleRefreshTokenFile: URL? = nil
  ) {
    self.auth = auth
    self.backend = backend
    self.google = google
    self.apple = apple
    self.renderer = renderer
    self.input = input
    self.issuers = issuers
    self.googleRefreshTokenFile = googleRefreshTokenFile
  }

  /// Runs `command`. Returns `false` when it failed (the error is already shown).
  public func run(_ command: REPLCommand) async -> Bool {
    do {
      try await execute(command)
      return true
    } catch let error as CommandError {
      await renderer.show(error)
    } catch {
      await renderer.show(AuthError.wrapping(error))
    }
    return false
  }

  private func execute(_ command: REPLCommand) async throws {
    switch command {
    case .signUp(let email):
      let password = try await newPassword()
      let result = try await auth.signUp(email: email, password: password)
      await say("signed up as \(TranscriptFormatter.who(result.user))")
    case .signIn(let email):
      let password = try await secret("Password for \(email): ")
      let result = try await auth.signIn(email: email, password: password)
      await say("signed in as \(TranscriptFormatter.who(result.user))")
    case .anonymous:
      let result = try await auth.signInAnonymously()
      await say("signed in as \(TranscriptFormatter.who(result.user))")
    case .google(let options):
      let result = try await auth.signIn(with: try await googleProvider(options))
      await say("signed in as \(TranscriptFormatter.who(result.user))\(result.isNewUser ? " (new user)" : "")")
    case .apple(let idToken, let rawNonce):
      let result = try await auth.signIn(with: try await appleProvider(idToken: idToken, rawNonce: rawNonce))
      await say("signed in as \(TranscriptFormatter.who(result.user))\(result.isNewUser ? " (new user)" : "")")
    case .linkEmail(let email):
      let password = try await newPassword()
      let result = try await auth.linkEmail(email, password: password)
      await say("linked email: \(TranscriptFormatter.who(result.user))")
    case .linkProvider(let provider):
      let signInProvider: any SignInProvider =
        provider == .google ? try await googleProvider(GoogleOptions()) : try await appleProvider(idToken: nil, rawNonce: nil)
      let result = try await auth.link(with: signInProvider)
      await say("linked \(TranscriptFormatter.name(of: provider)): \(TranscriptFormatter.who(result.user))")
    case .unlink(let provider):
      let user = try await auth.unlink(provider)
      await say("unlinked \(provider): \(TranscriptFormatter.who(user))")
    case .restore:
      let user = try await auth.restorePreviousSignIn(alongWith: googleForConfiguredIssuer().map { [$0] } ?? [])
      await say(user.map { "restored \(TranscriptFormatter.who($0))" } ?? "no previous sign-in")
    case .whoami:
      guard let user = auth.currentUser else { throw AuthError.noCurrentUserForREPL }
      let providers = user.providers.map(\.providerID.rawValue).joined(separator: ", ")
      await say(
        "\(TranscriptFormatter.who(user)); email verified: \(user.emailVerified); providers: "
          + (providers.isEmpty ? "none" : providers),
        fields: ["uid": user.uid, "email": user.email ?? ""])
    case .token(let force, let claims, let reveal):
      let token = try await auth.idToken(forceRefresh: force)
      if claims, let payload = Self.claims(of: token) { await say(payload) }
      await say(reveal ? token : "ID token: \(token.count) characters (use --reveal to show it)")
    case .refresh:
      _ = try await auth.idToken(forceRefresh: true)
      await say("token refreshed")
    case .reload:
      let user = try await auth.reload()
      await say("reloaded \(TranscriptFormatter.who(user))")
    case .profile(let name, let photo):
      let user = try await auth.updateProfile(displayName: name, photoURL: photo)
      await say("profile: \(user.displayName ?? "(no name)") \(user.photoURL?.absoluteString ?? "")")
    case .changeEmail(let email):
      try await auth.updateEmail(email)
      await say("email changed to \(email)")
    case .changePassword:
      try await auth.updatePassword(try await newPassword())
      await say("password changed")
    case .verifyEmail:
      try await auth.sendEmailVerification()
      await say("verification code sent; see 'mailbox'")
    case .applyCode(let code):
      try await auth.applyActionCode(code)
      await say("code applied")
    case .resetPassword(let email):
      try await auth.sendPasswordReset(to: email)
      await say("reset code sent to \(email); see 'mailbox \(email)'")
    case .confirmReset(let code):
      try await auth.confirmPasswordReset(code: code, newPassword: try await newPassword())
      await say("password reset; sign in with the new password")
    case .mailbox(let email):
      let messages = try await backend.mailbox(for: email)
      if messages.isEmpty { await say("no messages") }
      for message in messages {
        await say("\(message.kind) to \(message.to): \(message.code)", fields: ["code": message.code])
      }
    case .deleteAccount:
      try await auth.deleteAccount()
      await say("account deleted")
    case .signOut:
      try await auth.signOut()
      await say("signed out")
    case .state:
      let state = await MainState.read(auth)
      await say(TranscriptFormatter.line(for: state))
    case .watch(let on):
      await renderer.setWatching(on)
      await say(on ? "watching state changes" : "not watching")
    case .help(let name):
      if let name {
        guard let entry = CommandCatalog.entry(named: name) else {
          throw CommandError.unknownTopic(name, suggestion: CommandCatalog.suggestion(for: name))
        }
        await say("\(entry.usage)\n  \(entry.summary)")
      } else {
        await say(CommandCatalog.entries.map { "\($0.usage)\n    \($0.summary)" }.joined(separator: "\n"))
      }
    case .quit:
      break
    }
  }

  private func say(_ text: String, fields: [String: String] = [:]) async {
    await renderer.say(text, fields: fields)
  }

  private func secret(_ prompt: String) async throws -> String {
    let value = await input.secret(prompt: prompt)
    if Task.isCancelled { throw AuthError(.cancelled, "Cancelled; nothing changed.") }
    guard let value, !value.isEmpty else {
      throw AuthError(.cancelled, "No password was given; nothing changed.")
    }
    return value
  }

  /// A new password, typed twice on a terminal (once from a script).
  private func newPassword() async throws -> String {
    let first = try await secret("New password: ")
    guard input.isTerminal else { return first }
    let second = try await secret("Repeat it: ")
    guard first == second else {
      throw AuthError(.cancelled, "The two passwords differ; nothing changed. Try again.")
    }
    return first
  }

  /// The account chooser: at a terminal it lists the emails already used at `idp`; the answer
  /// is a number from the list or an email (typed, or the next line of a script).
  private func chooseAccount(at idp: EmbeddedIdentityProvider) async throws -> String {
    let known = await backend.knownEmails(signedInWith: idp.providerID)
    if input.isTerminal {
      let name = TranscriptFormatter.name(of: idp.providerID)
      let choices = known.enumerated().map { "  \($0.offset + 1)) \($0.element)" }
      await say(
        (["Choose an account at \(name):"] + choices + [known.isEmpty ? "  (none yet: type an email)" : "  or type another email"])
          .joined(separator: "\n"))
    }
    guard let answer = await input.line(prompt: "Account: ")?.trimmingCharacters(in: .whitespaces) else {
      throw AuthError(.cancelled, "No account was chosen; nothing changed.")
    }
    if let number = Int(answer), known.indices.contains(number - 1) { return known[number - 1] }
    guard answer.contains("@") else {
      throw AuthError(
        .cancelled,
        "'\(answer)' is not an email\(known.isEmpty ? "" : " or a number from the list"); nothing changed. Try again.")
    }
    return answer
  }

  /// Google sign-in: at a real issuer when one is given or configured, else the embedded IdP
  /// with its account chooser.
  private func googleProvider(_ options: GoogleOptions) async throws -> any SignInProvider {
    if options.isEmpty, let provider = googleForConfiguredIssuer() { return provider }
    let configured = issuers[.google]
    if let issuer = options.issuer ?? configured?.issuer {
      guard let clientID = options.clientID ?? (options.issuer == nil ? configured?.clientID : nil) else {
        throw CommandError.usage("google --issuer URL --client-id ID [--client-secret S] [--device]")
      }
      return GoogleProvider(
        configuration: .init(
          issuer: issuer, clientID: clientID, clientSecret: options.clientSecret ?? configured?.clientSecret,
          flow: options.device ? .device : .browser, deviceEndpoint: options.deviceEndpoint),
        present: presenter)
    }
    let idp = try identityProvider(.google)
    return EmbeddedProviderSession(idp: idp, email: try await chooseAccount(at: idp))
  }

  /// Shows an OpenID prompt through the renderer, and opens the browser when a person is there.
  private var presenter: @Sendable (GoogleProvider.Prompt) async -> Void {
    let renderer = renderer
    let opensBrowser = input.isTerminal
    return { prompt in
      await renderer.say(prompt.instructions)
      if opensBrowser, case .openBrowser(let url) = prompt { GoogleProvider.openInBrowser(url) }
    }
  }

  /// The provider for the `--idp google.com=…` issuer, created once.
  private func googleForConfiguredIssuer() -> GoogleProvider? {
    if let configuredGoogle { return configuredGoogle }
    guard let settings = issuers[.google] else { return nil }
    let provider = GoogleProvider(
      configuration: .init(
        issuer: settings.issuer, clientID: settings.clientID, clientSecret: settings.clientSecret,
        refreshTokenFile: googleRefreshTokenFile),
      present: presenter)
    configuredGoogle = provider
    return provider
  }

  /// Apple sign-in: a token obtained elsewhere, or the embedded Apple IdP signing the hashed
  /// nonce for the chosen account.
  private func appleProvider(idToken: String?, rawNonce: String?) async throws -> any SignInProvider {
    if let idToken, let rawNonce { return AppleProvider(identityToken: idToken, rawNonce: rawNonce) }
    let idp = try identityProvider(.apple)
    let email = try await chooseAccount(at: idp)
    return AppleProvider { hashedNonce in
      AppleProvider.Authorization(identityToken: try idp.idToken(email: email, nonce: hashedNonce))
    }
  }

  /// The embedded IdP for `provider`, when the backend accepts its tokens.
  private func identityProvider(_ provider: ProviderID) throws -> EmbeddedIdentityProvider {
    guard backend.acceptsEmbeddedIdentityProviders else {
      throw AuthError(
        .operationNotAllowed,
        "\(TranscriptFormatter.name(of: provider)) sign-in against production Firebase needs the real "
          + "\(TranscriptFormatter.name(of: provider)) provider; signin offers it on the embedded backend "
          + "and the emulator. Use 'signin EMAIL' or 'anonymous' here.")
    }
    return provider == .google ? google : apple
  }

  /// The JSON claims of a JWT, without verifying it (it is our own token).
  static func claims(of token: String) -> String? {
    let parts = token.split(separator: ".")
    guard parts.count >= 2, let bytes = Base64URL.decode(String(parts[1])) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A Google-style sign-in at the embedded IdP for a chosen email.
actor EmbeddedProviderSession: SignInProvider {
  let idp: EmbeddedIdentityProvider
  let email: String
  let nonce: String

  init(idp: EmbeddedIdentityProvider, email: String) {
    self.idp = idp
    self.email = email
    self.nonce = UUID().uuidString
  }

  nonisolated var id: ProviderID { idp.providerID }

  func credential() async throws -> ProviderCredential {
    ProviderCredential(providerID: idp.providerID, idToken: try idp.idToken(email: email, nonce: nonce))
  }

  func signOut() async {}
}

/// Reads the UI store's state.
enum MainState {
  @UIStateActor static func read(_ auth: Auth) -> AuthState { auth.stateStore.state }
}

extension AuthError {
  static let noCurrentUserForREPL = AuthError(
    .noCurrentUser, "No user is signed in. Try 'signin EMAIL', 'signup EMAIL' or 'anonymous'.")
}

extension Renderer {
  func setWatching(_ on: Bool) { isWatching = on }
}

/// A real OpenID issuer and this app's client there.
///
/// - Concurrency: `Sendable` value.
public struct IssuerSettings: Sendable, Equatable {
  public var issuer: String
  public var clientID: String
  public var clientSecret: String?

  public init(issuer: String, clientID: String, clientSecret: String? = nil) {
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
  }
}
