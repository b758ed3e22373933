import Foundation
import SignInKit
import SignInKitEmbedded

extension REPLSession {
  /// Google sign-in: at a real issuer when one is given or configured, else the embedded IdP
  /// with its account chooser.
  func googleProvider(_ options: GoogleOptions) async throws -> any SignInProvider {
    issuerGoogle = nil
    if let account = options.account {
      return EmbeddedProviderSession(idp: try identityProvider(.google), email: account)
    }
    if options.isEmpty, let provider = googleForConfiguredIssuer() { return provider }
    let configured = issuers[.google]
    if let issuer = options.issuer ?? configured?.issuer {
      guard let clientID = options.clientID ?? (options.issuer == nil ? configured?.clientID : nil) else {
        throw CommandError.usage("google --issuer URL --client-id ID [--client-secret S] [--device]")
      }
      var configuration = OpenIDConnectProvider.Configuration(
        issuer: issuer, clientID: clientID, providerID: .google,
        clientSecret: options.clientSecret ?? configured?.clientSecret,
        flow: options.device ? .device : .browser, deviceEndpoint: options.deviceEndpoint)
      configuration.serverClientID = options.serverClientID
      let provider = OpenIDConnectProvider(configuration: configuration, present: presenter)
      issuerGoogle = provider
      return provider
    }
    let idp = try identityProvider(.google)
    return EmbeddedProviderSession(idp: idp, email: try await chooseAccount(at: idp))
  }

  /// Shows an OpenID prompt through the renderer, and opens the browser when a person is there.
  var presenter: @Sendable (OpenIDConnectProvider.Prompt) async -> Void {
    let renderer = renderer
    let opensBrowser = input.isTerminal
    return { prompt in
      await renderer.say(prompt.instructions)
      if opensBrowser, case .openBrowser(let url) = prompt { OpenIDConnectProvider.openInBrowser(url) }
    }
  }

  /// The provider for the `--idp google.com=…` issuer, created once.
  func googleForConfiguredIssuer() -> OpenIDConnectProvider? {
    if let configuredGoogle { return configuredGoogle }
    guard let settings = issuers[.google] else { return nil }
    let provider = OpenIDConnectProvider(
      configuration: .init(
        issuer: settings.issuer, clientID: settings.clientID, providerID: .google, clientSecret: settings.clientSecret,
        refreshTokenFile: googleRefreshTokenFile),
      present: presenter)
    configuredGoogle = provider
    return provider
  }

  /// The Google provider whose issuer session the Google API commands use: the last one given
  /// on a `google` line, else the `--idp` one.
  ///
  /// - Throws: `operationNotAllowed` when Google is the embedded account chooser, which grants
  ///   no API access; the message says how to start with a real issuer.
  func googleAPIProvider() throws -> OpenIDConnectProvider {
    if let provider = issuerGoogle ?? googleForConfiguredIssuer() { return provider }
    throw AuthError(
      .operationNotAllowed,
      "Google API access (scopes, access tokens) needs Google at a real OpenID issuer; the offline "
        + "Google is an account chooser with no API. Start with 'signin --idp google.com=ISSUER,CLIENT_ID' "
        + "or sign in with 'google --issuer URL --client-id ID'.")
  }

  /// Apple sign-in: a token obtained elsewhere, or the embedded Apple IdP signing the hashed
  /// nonce for the chosen account.
  func appleProvider(idToken: String?, rawNonce: String?, account: String? = nil) async throws -> any SignInProvider {
    if let idToken, let rawNonce { return AppleProvider(identityToken: idToken, rawNonce: rawNonce) }
    let idp = try identityProvider(.apple)
    if let account { return Self.embeddedApple(idp, email: account) }
    return Self.embeddedApple(idp, email: try await chooseAccount(at: idp))
  }

  /// The embedded Apple IdP signing in `email`: the identity token for the hashed nonce, and a
  /// fresh authorization code, as Apple's sheet returns them.
  static func embeddedApple(_ idp: EmbeddedIdentityProvider, email: String) -> AppleProvider {
    AppleProvider { hashedNonce in
      AppleProvider.Authorization(
        identityToken: try idp.idToken(email: email, nonce: hashedNonce),
        authorizationCode: try idp.authorizationCode(email: email), userIdentifier: idp.subject(for: email))
    }
  }

  /// The embedded IdP for `provider`, when the backend accepts its tokens.
  func identityProvider(_ provider: ProviderID) throws -> EmbeddedIdentityProvider {
    guard backend.acceptsEmbeddedIdentityProviders else {
      throw AuthError(
        .operationNotAllowed,
        "\(TranscriptFormatter.name(of: provider)) sign-in against production Firebase needs the real "
          + "\(TranscriptFormatter.name(of: provider)) provider; signin offers it on the embedded backend "
          + "and the emulator. Use 'signin EMAIL' or 'anonymous' here.")
    }
    return provider == .google ? google : apple
  }

  /// An instant as `2026-12-01T15:04:05Z`.
  static func stamp(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
