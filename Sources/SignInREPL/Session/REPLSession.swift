import Foundation
import SignInKit
import SignInKitEmbedded

/// Runs parsed commands against an `Auth` and reports through the ``Renderer``. On the embedded
/// backend (and the Firebase emulator) Google and Apple sign-in use ``EmbeddedIdentityProvider``s,
/// so every command works offline.
///
/// - Concurrency: actor; commands run one at a time, in order.
package actor REPLSession {
  package nonisolated let auth: Auth
  let backend: REPLBackend
  let renderer: Renderer
  let input: any InputSource
  let google: EmbeddedIdentityProvider
  let apple: EmbeddedIdentityProvider
  /// Real OpenID issuers to sign in at by default (from `--idp`), by provider.
  let issuers: [ProviderID: IssuerSettings]
  /// The provider for the configured Google issuer, kept so its session is restored and
  /// signed out with the backend's.
  var configuredGoogle: OpenIDConnectProvider?
  let googleRefreshTokenFile: URL?
  /// Where a `send-link` link continues when no `--continue` is given: the page an app would
  /// finish the sign-in on (the REPL itself finishes it with `signin-link`).
  static let defaultContinueURL = URL(string: "http://localhost/finish-sign-in")!

  package init(
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
  package func run(_ command: REPLCommand) async -> Bool {
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
      let result = try await withSecondFactor { try await auth.signIn(email: email, password: password) }
      await say("signed in as \(TranscriptFormatter.who(result.user))")
    case .anonymous:
      let result = try await auth.signInAnonymously()
      await say("signed in as \(TranscriptFormatter.who(result.user))")
    case .customToken(let token):
      let result = try await auth.signIn(customToken: token)
      await say(
        "signed in as \(TranscriptFormatter.who(result.user))"
          + (result.isNewUser ? " (new account)" : ""),
        fields: ["uid": result.user.uid])
    case .google(let options):
      let provider = try await googleProvider(options)
      let result = try await withSecondFactor { try await auth.signIn(with: provider) }
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
        provider == .google
        ? try await googleProvider(GoogleOptions()) : try await appleProvider(idToken: nil, rawNonce: nil)
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
          + (providers.isEmpty ? "none" : providers)
          + (user.secondFactors.isEmpty
            ? "" : "; second factors: " + user.secondFactors.map(TranscriptFormatter.describe).joined(separator: ", ")),
        fields: ["uid": user.uid, "email": user.email ?? ""])
    case .token(let force, let claims, let reveal):
      let result = try await auth.idTokenResult(forceRefresh: force)
      if claims {
        await say(
          "signed in with \(result.signInProvider.map(TranscriptFormatter.name(of:)) ?? "an unknown method"); issued \(Self.stamp(result.issuedAt)), "
            + "expires \(Self.stamp(result.expirationDate))"
            + (result.authTime.map { "; last sign-in \(Self.stamp($0))" } ?? ""))
        await say(ClaimValue.object(result.claims).description)
      }
      let token = result.token
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
    case .enrollTOTP(let name):
      let secret = try await auth.startTOTPEnrollment()
      let account = auth.currentUser?.email ?? auth.currentUser?.uid ?? "account"
      // The person asked to enrol: the secret is theirs to put in their authenticator app.
      await say("secret: \(secret.secretKey)", fields: ["secret": secret.secretKey])
      await say("uri: \(secret.otpauthURI(accountName: account, issuer: "SignInKit"))")
      let code = try await oneTimeCode()
      let user = try await auth.finishTOTPEnrollment(secret, code: code, displayName: name)
      await say("second factor added: \(user.secondFactors.map(TranscriptFormatter.describe).joined(separator: ", "))")
    case .unenrollSecondFactor(let id):
      let user = try await auth.unenrollSecondFactor(id)
      await say("second factor removed; \(user.secondFactors.count) left")
    case .checkCode(let code):
      let info = try await auth.checkActionCode(code)
      let change = info.newEmail.map { " → \($0)" } ?? ""
      await say(
        "\(TranscriptFormatter.name(of: info.operation)) code for \(info.email ?? "(no email)")\(change); not used",
        fields: ["operation": TranscriptFormatter.name(of: info.operation), "email": info.email ?? ""])
    case .verifyNewEmail(let email):
      try await auth.sendEmailVerification(beforeUpdatingEmail: email)
      await say("change-of-email code sent to \(email); see 'mailbox \(email)', then 'apply-code CODE'")
    case .sendSignInLink(let email, let continueURL):
      let settings = ActionCodeSettings(
        continueURL: continueURL ?? Self.defaultContinueURL, handlesCodeInApp: true)
      try await auth.sendSignInLink(to: email, settings: settings)
      await say("sign-in link sent to \(email); see 'mailbox \(email)', then 'signin-link \(email) LINK'")
    case .signInWithLink(let email, let link):
      let result = try await withSecondFactor { try await auth.signIn(email: email, link: link) }
      await say("signed in as \(TranscriptFormatter.who(result.user))\(result.isNewUser ? " (new account)" : "")")
    case .linkEmailLink(let email, let link):
      let result = try await auth.linkEmail(email, link: link)
      await say("linked \(email) to \(TranscriptFormatter.who(result.user))")
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
        var fields = ["code": message.code]
        fields["link"] = message.link
        await say(
          "\(message.kind) to \(message.to): \(message.code)" + (message.link.map { "\n  link: \($0)" } ?? ""),
          fields: fields)
      }
    case .deleteAccount:
      // An account that signs in with Apple revokes Apple's token first, as the App Store asks.
      if let apple = auth.currentUser?.providers.first(where: { $0.providerID == .apple }), let email = apple.email,
        backend.acceptsEmbeddedIdentityProviders
      {
        try await auth.deleteAccount(
          reauthenticatingWith: Self.embeddedApple(try identityProvider(.apple), email: email))
        await say("Apple's token revoked; account deleted")
      } else {
        try await auth.deleteAccount()
        await say("account deleted")
      }
    case .signOut:
      try await auth.signOut()
      await say("signed out")
    case .state:
      let state = auth.currentState
      await say(TranscriptFormatter.line(for: state))
    case .watch(let on):
      await renderer.setWatching(on)
      await say(on ? "watching state changes" : "not watching")
    case .watchUsers(let on):
      await renderer.setWatchingUsers(on)
      await say(on ? "watching the signed-in user" : "not watching the signed-in user")
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
}
