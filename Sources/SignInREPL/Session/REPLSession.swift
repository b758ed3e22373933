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
  /// The backend of the current tenant (``switchTenant(to:)`` replaces it).
  private(set) var backend: REPLBackend
  let renderer: Renderer
  let input: any InputSource
  let google: EmbeddedIdentityProvider
  let apple: EmbeddedIdentityProvider
  /// Real OpenID issuers to sign in at by default (from `--idp`), by provider.
  let issuers: [ProviderID: IssuerSettings]
  /// The provider for the configured Google issuer, kept so its session is restored and
  /// signed out with the backend's.
  var configuredGoogle: OpenIDConnectProvider?
  /// The provider of the last Google sign-in at an issuer given on the `google` line, for the
  /// Google API commands (`scopes`, `add-scopes`, `access-token`).
  var issuerGoogle: OpenIDConnectProvider?
  let googleRefreshTokenFile: URL?
  /// The development authenticator's folder (`passkey` commands); `nil` keeps its passkeys in
  /// memory.
  let passkeyFolder: URL?
  /// The credential the last `link` that found its account already exists handed back: an
  /// `upgrade` with that provider signs in with it instead of asking the provider again.
  var conflictCredential: ProviderCredential?
  /// The development authenticator, made on the first `passkey` command.
  var developmentAuthenticator: DevelopmentPasskeyAuthenticator?
  /// Called before the first work on the main actor (`start`'s flow), so the launch gives the
  /// main thread to the main queue.
  let needsMainActor: @Sendable () -> Void
  /// Where a `send-link` link continues when no `--continue` is given: the page an app would
  /// finish the sign-in on (the REPL itself finishes it with `signin-link`).
  static let defaultContinueURL = URL(string: "http://localhost/finish-sign-in")!

  package init(
    auth: Auth, backend: REPLBackend, google: EmbeddedIdentityProvider,
    apple: EmbeddedIdentityProvider, renderer: Renderer, input: any InputSource,
    issuers: [ProviderID: IssuerSettings] = [:], googleRefreshTokenFile: URL? = nil, passkeyFolder: URL? = nil,
    needsMainActor: @escaping @Sendable () -> Void
  ) {
    self.passkeyFolder = passkeyFolder
    self.needsMainActor = needsMainActor
    self.auth = auth
    self.backend = backend
    self.google = google
    self.apple = apple
    self.renderer = renderer
    self.input = input
    self.issuers = issuers
    self.googleRefreshTokenFile = googleRefreshTokenFile
  }

  /// Moves the session to tenant `tenantID` (`nil`: the project's own users): `Auth` keeps each
  /// tenant's session, and the mailbox and texts follow the tenant.
  func switchTenant(to tenantID: String?) async throws -> User? {
    let next: REPLBackend
    switch backend {
    case .embedded(let embedded):
      next = .embedded(try embedded.tenant(tenantID))
    case .firebase(var client):
      client.tenantID = tenantID
      next = .firebase(client)
    }
    let user = try await auth.switchTenant(to: tenantID)
    backend = next
    return user
  }

  /// The development authenticator, its passkeys in ``passkeyFolder``.
  func passkeyAuthenticator() throws -> DevelopmentPasskeyAuthenticator {
    if let developmentAuthenticator { return developmentAuthenticator }
    let made = try DevelopmentPasskeyAuthenticator(directory: passkeyFolder)
    developmentAuthenticator = made
    return made
  }

  /// Runs `command`. Returns `false` when it failed (the error is already shown).
  package func run(_ command: any REPLCommand) async -> Bool {
    await renderer.commandStarted()
    let succeeded: Bool
    do {
      try await command.run(in: self)
      succeeded = true
    } catch let error as CommandError {
      await renderer.show(error)
      succeeded = false
    } catch {
      await renderer.show(AuthError.wrapping(error))
      succeeded = false
    }
    // The states the command caused reach the renderer before it counts as ended, so none of
    // them is printed as if it had happened by itself.
    let store = auth.stateStore
    await renderer.waitUntilShowing { store.state }
    await renderer.commandEnded()
    return succeeded
  }
}
