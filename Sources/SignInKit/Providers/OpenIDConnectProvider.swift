import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation

/// Sign-in with any OpenID Connect issuer as an installed app: Google (the
/// ``Configuration/google(clientID:clientSecret:scopes:flow:refreshTokenFile:)`` preset),
/// Microsoft, GitLab, Okta, Auth0 or a company's own issuer. The authorization code flow with
/// PKCE (S256), `state` and `nonce`, received on a loopback redirect
/// (`http://127.0.0.1:<random port>/callback`, RFC 8252) or an app's own scheme, or the device
/// authorization grant (RFC 8628) for terminals without a browser. The ID token is verified
/// (RS256 signature by a key the issuer publishes, `iss`, `aud`, `exp`, `nonce`) before it
/// reaches the backend, which signs in with it under ``Configuration/providerID``.
///
/// ```swift
/// let google = OpenIDConnectProvider(configuration: .google(clientID: "1234-abc.apps.googleusercontent.com"))
/// try await auth.signIn(with: google)
///
/// let company = OpenIDConnectProvider(
///   configuration: .init(issuer: "https://login.example.com", clientID: "app", providerID: .oidc("example")))
/// ```
///
/// - Concurrency: actor. One sign-in at a time per provider; ``credential()`` honours
///   cancellation (the loopback listener closes, polling stops) and times out after
///   ``Configuration/timeout`` waiting for the browser.
public actor OpenIDConnectProvider: RestorableSignInProvider {
  /// How the user approves.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Flow: Sendable, Equatable {
    /// The flow that works on this platform: the system sheet with ``Configuration/appRedirectURI`` where there is a sheet and a
    /// redirect URI (iOS, visionOS, macOS apps), else a desktop browser (Linux, macOS). Where
    /// neither can work, ``OpenIDConnectProvider/credential()`` fails at once and says what to
    /// pass.
    case automatic
    /// A browser on this machine, redirecting to a loopback listener.
    case browser
    /// A browser sheet in the app (``WebAuthenticationSession``) redirecting to the app's own
    /// scheme, such as ``OpenIDConnectProvider/appRedirectURI(reversedClientID:)``: the flow for iOS
    /// apps.
    case appRedirect(URL)
    /// A code typed on another device (RFC 8628).
    case device
  }

  /// What to show the user.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Prompt: Sendable, Equatable {
    /// Open this URL in a browser.
    case openBrowser(URL)
    /// Visit `verificationURL` on any device and enter `userCode`.
    case enterCode(userCode: String, verificationURL: URL, completeURL: URL?)

    /// What to tell the user, in plain words.
    public var instructions: String {
      switch self {
      case .openBrowser(let url): "Open this URL to sign in:\n  \(url.absoluteString)"
      case .enterCode(let userCode, let verificationURL, let completeURL):
        "On any device, visit \(verificationURL.absoluteString) and enter \(userCode)"
          + (completeURL.map { "\n  or open \($0.absoluteString)" } ?? "")
      }
    }
  }

  /// The client and issuer settings.
  ///
  /// - Concurrency: `Sendable` value; its description and mirror never show the client secret.
  public struct Configuration: Sendable, CustomStringConvertible, CustomReflectable {
    /// The issuer; discovery reads `<issuer>/.well-known/openid-configuration`.
    public var issuer: String
    public var clientID: String
    /// Installed apps usually have none; some issuers require one.
    public var clientSecret: String?
    public var scopes: [String]
    /// What the authorization request adds: `login_hint`, Google's `hd`, `prompt`, and other
    /// parameters the issuer documents.
    public var authorizationParameters = AuthorizationParameters()
    public var flow: Flow
    /// The app's own redirect URI (its scheme registered in the app's URL types), which
    /// ``Flow/automatic`` uses with the system sheet: for Google, the reversed client id
    /// (``OpenIDConnectProvider/appRedirectURI(reversedClientID:)``), which the Google presets set.
    public var appRedirectURI: URL?
    /// The loopback port (0: random) and path of the redirect URI.
    public var redirectPort: UInt16
    public var redirectPath: String
    /// Overrides discovery's `device_authorization_endpoint`.
    public var deviceEndpoint: URL?
    /// Overrides discovery's `revocation_endpoint` (RFC 7009), for an issuer that revokes tokens
    /// without publishing where (django-oauth-toolkit serves `/o/revoke_token/`).
    public var revocationEndpoint: URL?
    /// How long to wait for the browser to come back.
    public var timeout: Duration
    /// Revoke the issuer's tokens at the issuer on ``OpenIDConnectProvider/signOut()``.
    public var revokesOnSignOut: Bool
    /// The backend provider id the credential is for.
    public var providerID: ProviderID
    /// Where the issuer's refresh token is kept so ``OpenIDConnectProvider/restoreSession()`` can
    /// bring the issuer's session back at launch: the keychain on Apple platforms
    /// (``defaultRefreshTokenStore(for:namespace:)``), or any ``ProviderTokenStore``; `nil` keeps
    /// it in memory only, unless ``refreshTokenFile`` names a file.
    public var refreshTokenStore: (any ProviderTokenStore)?
    /// A file (0600) for the refresh token, when ``refreshTokenStore`` is `nil`.
    public var refreshTokenFile: URL?
    /// Google: the web client ID of the app's server. With one, each sign-in also returns a
    /// one-time server auth code for that server (``ProviderCredential/serverAuthCode``), as
    /// GoogleSignIn's `serverClientID` does.
    public var serverClientID: String?

    /// The store the refresh token goes to: ``refreshTokenStore``, or a file store for
    /// ``refreshTokenFile``.
    var tokenStore: (any ProviderTokenStore)? {
      refreshTokenStore ?? refreshTokenFile.map { FileProviderTokenStore(file: $0) }
    }

    /// A client of `issuer` registered as `clientID`, whose ID tokens the backend accepts as
    /// `providerID` (Firebase: `google.com`, `microsoft.com`, or `oidc.<name>` for an OpenID
    /// Connect provider configured in the console).
    public init(
      issuer: String, clientID: String, providerID: ProviderID, clientSecret: String? = nil,
      scopes: [String] = ["openid", "email", "profile"], flow: Flow = .automatic, appRedirectURI: URL? = nil,
      redirectPort: UInt16 = 0, redirectPath: String = "/callback", deviceEndpoint: URL? = nil,
      timeout: Duration = .seconds(300), revokesOnSignOut: Bool = false, refreshTokenFile: URL? = nil
    ) {
      self.issuer = issuer
      self.clientID = clientID
      self.clientSecret = clientSecret
      self.scopes = scopes
      self.flow = flow
      self.appRedirectURI = appRedirectURI
      self.redirectPort = redirectPort
      self.redirectPath = redirectPath
      self.deviceEndpoint = deviceEndpoint
      self.timeout = timeout
      self.revokesOnSignOut = revokesOnSignOut
      self.providerID = providerID
      self.refreshTokenFile = refreshTokenFile
    }

    /// Google (`https://accounts.google.com`, provider `google.com`) with the OAuth client of
    /// an installed app (`….apps.googleusercontent.com`). Google's desktop clients come with a
    /// secret that is not secret; pass it when the console shows one.
    ///
    /// The Google session (its refresh token and granted scopes) is kept across launches in
    /// ``defaultRefreshTokenStore(for:namespace:)`` (the keychain on Apple platforms, a private
    /// file elsewhere), or in `refreshTokenFile` when given; set ``refreshTokenStore`` to `nil`
    /// to keep it in memory only.
    ///
    /// ``appRedirectURI`` is the client id reversed (`com.googleusercontent.apps.1234-abc:/oauthredirect`),
    /// the redirect Google allows an iOS client, so ``Flow/automatic`` signs in through the system
    /// sheet on iOS and through the desktop browser on Linux.
    public static func google(
      clientID: String, clientSecret: String? = nil, scopes: [String] = ["openid", "email", "profile"],
      flow: Flow = .automatic, refreshTokenFile: URL? = nil
    ) -> Configuration {
      var configuration = Configuration(
        issuer: "https://accounts.google.com", clientID: clientID, providerID: .google, clientSecret: clientSecret,
        scopes: scopes, flow: flow,
        appRedirectURI: OpenIDConnectProvider.appRedirectURI(reversedClientID: reversedClientID(of: clientID)),
        refreshTokenFile: refreshTokenFile)
      // GoogleSignIn keeps the Google session across launches; so does this preset, unless a
      // file is named for it.
      if refreshTokenFile == nil { configuration.refreshTokenStore = defaultRefreshTokenStore(for: .google) }
      return configuration
    }

    /// Google with the iOS OAuth client of a Firebase app: the `CLIENT_ID` of its
    /// `GoogleService-Info.plist` (``FirebaseConfiguration/clientID``, which the build plugin
    /// generates as `FirebaseConfiguration.serviceInfo`), redirecting to its `REVERSED_CLIENT_ID`.
    ///
    /// ```swift
    /// let google = OpenIDConnectProvider(configuration: try .google(firebase: .serviceInfo))
    /// ```
    ///
    /// - Throws: ``AuthError/Code/misconfigured`` when the plist has no `CLIENT_ID` (Google
    ///   sign-in was not enabled when it was downloaded).
    public static func google(
      firebase: FirebaseConfiguration, scopes: [String] = ["openid", "email", "profile"], flow: Flow = .automatic,
      refreshTokenFile: URL? = nil
    ) throws -> Configuration {
      guard let clientID = firebase.clientID, !clientID.isEmpty else {
        throw AuthError(
          .misconfigured,
          "GoogleService-Info.plist of project \(firebase.projectID) has no CLIENT_ID. Enable Google "
            + "sign-in in the Firebase console (Authentication → Sign-in method), then download the plist again.")
      }
      return .google(clientID: clientID, scopes: scopes, flow: flow, refreshTokenFile: refreshTokenFile)
    }

    /// `1234-abc.apps.googleusercontent.com` → `com.googleusercontent.apps.1234-abc`, as
    /// `REVERSED_CLIENT_ID` spells it.
    static func reversedClientID(of clientID: String) -> String {
      clientID.split(separator: ".").reversed().joined(separator: ".")
    }

    public var description: String {
      "OpenIDConnectProvider.Configuration(issuer: \(issuer), clientID: \(clientID), flow: \(flow), "
        + "clientSecret: \(clientSecret == nil ? "none" : "redacted"))"
    }
    public var customMirror: Mirror {
      Mirror(
        self,
        children: [
          "issuer": issuer, "clientID": clientID, "hasClientSecret": clientSecret != nil, "scopes": scopes,
          "flow": flow, "appRedirectURI": appRedirectURI as Any, "providerID": providerID,
          "refreshTokenFile": refreshTokenFile as Any, "hasRefreshTokenStore": refreshTokenStore != nil,
        ])
    }
  }

  public nonisolated let id: ProviderID
  public nonisolated let configuration: Configuration
  let transport: any HTTPTransport
  let clock: any Clock<Duration>
  let present: @Sendable (Prompt) async -> Void
  /// Whether the app shows prompts itself (it passed `present`).
  let presentsItself: Bool
  let webSession: (any WebAuthenticationSession)?
  /// What this platform can show; decides ``Flow/automatic``.
  let surface: SignInSurface
  let now: @Sendable () -> Date
  private var client: OIDCClient?
  /// The one refresh of the issuer's tokens in flight, shared by ``freshAccessToken(minimumValidity:)``
  /// and ``restoreSession()``.
  private let refreshFlight = SingleFlight<OAuthTokens>()
  /// Orders sign-ins, added scopes and sign-outs at the issuer: a refresh that finishes after
  /// one of them started keeps nothing.
  private var sessionChanges = LastStartedWins()
  /// The issuer's tokens from the last sign-in (to call its APIs, such as Google's), until ``signOut()``.
  public private(set) var tokens: OAuthTokens?

  /// - Parameters:
  ///   - configuration: the issuer, the client and the flow.
  ///   - transport: reaches the issuer (discovery, keys, tokens).
  ///   - clock: times the browser wait and device-grant polling.
  ///   - now: the wall clock ID tokens are checked against.
  ///   - webSession: shows the sign-in for ``Flow/appRedirect(_:)``; by default the system sheet
  ///     (`SystemWebAuthenticationSession`) where there is one.
  ///   - surface: what this platform can show, which decides ``Flow/automatic``; tests pass another.
  ///   - present: shows a prompt to the user; by default ``printAndOpen``, which prints it and
  ///     opens the browser with `xdg-open` or `open` when there is one.
  public init(
    configuration: Configuration, transport: any HTTPTransport = URLSessionTransport(),
    clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() },
    webSession: (any WebAuthenticationSession)? = nil, surface: SignInSurface = .current,
    present: (@Sendable (Prompt) async -> Void)? = nil
  ) {
    self.webSession = webSession ?? (surface.hasSystemWebSheet ? SystemWebSheet.session : nil)
    self.surface = surface
    self.id = configuration.providerID
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    self.now = now
    self.present = present ?? OpenIDConnectProvider.printAndOpen
    self.presentsItself = present != nil
  }

  /// Runs the configured flow: shows the sign-in, receives the code (or polls for the device
  /// grant), exchanges it, and verifies the ID token.
  ///
  /// - Throws: at once, before anything is shown, ``AuthError/Code/misconfigured`` naming what
  ///   to pass when the flow cannot work on this platform (no browser, no sheet, or no redirect
  ///   URI for it).
  public func credential() async throws -> ProviderCredential {
    try await credential(nonce: try Self.freshNonce())
  }

  /// ``credential()`` with the app's own raw `nonce` in the authorization request, for an app
  /// whose server checks the ID token's `nonce` claim itself (as GoogleSignIn's `nonce:`
  /// parameter): the credential carries it as ``ProviderCredential/rawNonce``, and the backend
  /// checks the token against it too. The device flow has no nonce; its credential carries none.
  ///
  /// - Cancellation and errors: as ``credential()``.
  public func credential(nonce: String) async throws -> ProviderCredential {
    let (tokens, sentNonce) = try await authorize(
      scopes: configuration.scopes, parameters: configuration.authorizationParameters, nonce: nonce)
    _ = sessionChanges.start()
    try keep(tokens.received(at: now()))
    var credential = ProviderCredential(
      providerID: id, idToken: tokens.idToken, accessToken: tokens.accessToken,
      rawNonce: tokens.idToken == nil ? nil : sentNonce)
    credential.serverAuthCode = tokens.serverAuthCode
    return credential
  }

  /// Asks the issuer for `scopes` beyond those granted (incremental authorization, GoogleSignIn's
  /// `addScopes`): the configured flow runs again for the granted scopes and the new ones,
  /// preselecting the signed-in account (`login_hint`). The SignInKit session is untouched; the
  /// issuer's tokens are replaced by the new ones, which cover every scope granted.
  ///
  /// - Returns: the scopes granted now; at once, with nothing shown, when every one of `scopes`
  ///   is granted already.
  /// - Throws: ``AuthError/Code/noCurrentUser`` when there is no session with the issuer;
  ///   ``AuthError/Code/userMismatch`` when the person chose another account at the issuer (the
  ///   old tokens are kept); what the flow throws (``AuthError/Code/userCancelled``…).
  @discardableResult
  public func addScopes(_ scopes: [String]) async throws -> [String] {
    guard let current = tokens else {
      throw AuthError(.noCurrentUser, "There is no \(id) session to add scopes to; sign in first.")
    }
    let granted = grantedScopes
    let missing = scopes.filter { !granted.contains($0) }
    guard !missing.isEmpty else { return granted }
    var parameters = configuration.authorizationParameters
    let signedIn = current.idToken.flatMap { try? JSONWebToken(decoding: $0) }
    if parameters.loginHint == nil { parameters.loginHint = signedIn?.claims["email"]?.string }
    var fresh = try await authorize(
      scopes: granted + missing, parameters: parameters, nonce: try Self.freshNonce()
    ).0.received(at: now())
    let chosen = fresh.idToken.flatMap { try? JSONWebToken(decoding: $0) }
    if let before = signedIn?.subject, let after = chosen?.subject, before != after {
      throw AuthError(
        .userMismatch,
        "Another \(id) account was chosen than the signed-in one; nothing changed. Choose the signed-in account "
          + "to grant the new access.")
    }
    fresh.refreshToken = fresh.refreshToken ?? current.refreshToken
    fresh.scope = fresh.scope ?? (granted + missing).joined(separator: " ")
    _ = sessionChanges.start()
    try keep(fresh)
    return grantedScopes
  }

  /// A new raw nonce for an authorization request: 16 random bytes, base64url.
  private static func freshNonce() throws -> String { Base64URL.encode(try Crypto.randomBytes(16)) }

  /// Runs the configured flow for `scopes`: shows the sign-in, receives the code (or polls for
  /// the device grant), exchanges it, and verifies the ID token, whose `nonce` claim must be
  /// `nonce` in the code flows. Keeps nothing.
  ///
  /// - Returns: the tokens, and the nonce the request carried (`nil` for the device grant).
  private func authorize(
    scopes: [String], parameters: AuthorizationParameters, nonce: String
  ) async throws -> (OAuthTokens, String?) {
    let flow = try Self.chooseFlow(
      configuration.flow, appRedirectURI: configuration.appRedirectURI, surface: surface,
      hasWebSession: webSession != nil, presentsItself: presentsItself)
    // A reserved parameter is refused before anything is shown.
    let extra = try parameters.fields()
    let client = try await discoveredClient()
    let tokens: OAuthTokens
    switch flow {
    case .browser: tokens = try await browserFlow(client, scopes: scopes, nonce: nonce, extra: extra)
    case .appRedirect(let redirectURI):
      tokens = try await appRedirectFlow(client, scopes: scopes, nonce: nonce, redirectURI: redirectURI, extra: extra)
    case .device: tokens = try await deviceFlow(client, scopes: scopes)
    }
    if let idToken = tokens.idToken {
      // A device grant cannot carry a nonce; the code flows' tokens must echo ours.
      _ = try await client.verifyIDToken(idToken, nonce: flow == .device ? nil : nonce)
    }
    return (tokens, flow == .device ? nil : nonce)
  }

  /// The scopes the issuer granted at the last sign-in or refresh; the configured ones when it
  /// did not say (RFC 6749 §5.1: then it granted what was asked); empty when signed out.
  public var grantedScopes: [String] {
    guard let tokens else { return [] }
    guard let scope = tokens.scope else { return configuration.scopes }
    return scope.split(separator: " ").map(String.init)
  }

  /// An access token for the issuer's APIs (Google Drive, Calendar…) that stays valid for at
  /// least `minimumValidity`: the current one, or a new one from the refresh token. Any number
  /// of concurrent callers share one refresh, and so does ``restoreSession()``.
  ///
  /// - Cancellation: a cancelled caller leaves at once with ``AuthError/Code/cancelled``; the
  ///   refresh goes on for the others.
  /// - Throws: ``AuthError/Code/noCurrentUser`` when there is no session with the issuer (sign
  ///   in, or restore it, first); ``AuthError/Code/invalidCredential`` when the issuer refused
  ///   the refresh token (its session is over: the tokens are forgotten, stored ones too, and the
  ///   person must sign in again); network errors, which keep the tokens for a retry.
  public func freshAccessToken(minimumValidity: Duration = .seconds(60)) async throws -> String {
    guard let current = tokens else {
      throw AuthError(.noCurrentUser, "There is no \(id) session to get an access token from; sign in first.")
    }
    if let expiresAt = current.expiresAt, expiresAt.timeIntervalSince(now()) <= minimumValidity.seconds {
      return try await refreshed().accessToken
    }
    return current.accessToken
  }

  /// One refresh at the token endpoint, shared by every caller that needs it.
  private func refreshed() async throws -> OAuthTokens {
    do {
      return try await refreshFlight.run { [self] in try await refreshOnce() }
    } catch is CancellationError {
      throw AuthError(.cancelled, "The access-token request was cancelled; nothing changed.")
    }
  }

  private func refreshOnce() async throws -> OAuthTokens {
    let stored =
      try tokens?.refreshToken == nil ? configuration.tokenStore?.load().map(StoredProviderSession.init(stored:)) : nil
    guard let refreshToken = tokens?.refreshToken ?? stored?.refreshToken else {
      throw AuthError(
        .invalidCredential,
        "The \(id) access token expired and the issuer gave no refresh token; sign in again (ask for offline "
          + "access to get one).")
    }
    let ticket = sessionChanges.newest
    do {
      var fresh = try await discoveredClient().refresh(refreshToken).received(at: now())
      guard sessionChanges.isNewest(ticket) else {
        throw AuthError(.superseded, "A sign-in or sign-out with \(id) happened during the refresh; it was dropped.")
      }
      // A refresh reply may leave out the ID token and the scopes: they stay what they were,
      // in this process or as the last one stored them.
      fresh.idToken = fresh.idToken ?? tokens?.idToken ?? stored?.idToken
      fresh.scope = fresh.scope ?? tokens?.scope ?? stored?.scope
      try keep(fresh)
      return fresh
    } catch let error as AuthError where error.code == .invalidCredential && sessionChanges.isNewest(ticket) {
      tokens = nil
      try? configuration.tokenStore?.clear()
      throw error
    }
  }

  /// Makes `tokens` the session's, and stores its refresh token, granted scopes and ID token
  /// when there is a store for them.
  private func keep(_ tokens: OAuthTokens) throws {
    self.tokens = tokens
    if let store = configuration.tokenStore, let refreshToken = tokens.refreshToken {
      try store.save(
        StoredProviderSession(refreshToken: refreshToken, scope: tokens.scope, idToken: tokens.idToken).encoded)
    }
  }

  /// Brings back the issuer's session from the stored refresh token
  /// (``Configuration/refreshTokenStore``), with the scopes granted when it was stored: one
  /// refresh at the token endpoint, shared with ``freshAccessToken(minimumValidity:)``. A
  /// refresh token the issuer refuses is deleted.
  ///
  /// - Returns: `false` when no refresh token is stored.
  public func restoreSession() async throws -> Bool {
    guard try configuration.tokenStore?.load() != nil else { return false }
    _ = try await refreshed()
    return true
  }

  /// Forgets the issuer's tokens, stored ones too. When configured to revoke, the refresh token is
  /// revoked at the issuer first (RFC 7009), whether it came from this process's sign-in or
  /// only sits in the ``Configuration/refreshTokenStore`` from an earlier launch; then the stored
  /// token is deleted. Offline, the revocation is skipped and the tokens are still forgotten here.
  public func signOut() async {
    let stored = ((try? configuration.tokenStore?.load()) ?? nil).map(StoredProviderSession.init(stored:))?.refreshToken
    let token = tokens?.refreshToken ?? stored ?? tokens?.accessToken
    tokens = nil
    _ = sessionChanges.start()
    if configuration.revokesOnSignOut, let token, let client = try? await discoveredClient() {
      _ = try? await client.revoke(token)
    }
    try? configuration.tokenStore?.clear()
  }

  /// The issuer's client, discovered once.
  func discoveredClient() async throws -> OIDCClient {
    if let client { return client }
    var metadata = try await OIDCProviderMetadata.discover(issuer: configuration.issuer, transport: transport)
    metadata.revocationEndpoint = configuration.revocationEndpoint ?? metadata.revocationEndpoint
    var client = OIDCClient(
      metadata: metadata, clientID: configuration.clientID, clientSecret: configuration.clientSecret,
      transport: transport, now: now)
    client.audience = configuration.serverClientID
    self.client = client
    return client
  }

  private func browserFlow(_ client: OIDCClient, scopes: [String], nonce: String, extra: [(String, String)])
    async throws
    -> OAuthTokens
  {
    let listener = try LoopbackRedirectListener(port: configuration.redirectPort, path: configuration.redirectPath)
    defer { listener.close() }
    let state = Base64URL.encode(try Crypto.randomBytes(16))
    let pkce = try PKCE.generate()
    let url = client.authorizationURL(
      redirectURI: listener.redirectURI, scopes: scopes, state: state, nonce: nonce, pkce: pkce,
      extra: extra)
    await present(.openBrowser(url))
    let query: [String: String]
    do {
      query = try await withTimeout(configuration.timeout, clock: self.clock) { try await listener.receive() }
    } catch is TimeoutError {
      throw AuthError(.timeout, "The browser did not come back in time. Start the sign-in again.")
    }
    return try await Self.exchange(
      query, expectedState: state, client: client, redirectURI: listener.redirectURI, pkce: pkce)
  }

  private func appRedirectFlow(
    _ client: OIDCClient, scopes: [String], nonce: String, redirectURI: URL, extra: [(String, String)]
  ) async throws -> OAuthTokens {
    guard let webSession else { throw Self.noSheet(for: redirectURI) }
    guard let scheme = redirectURI.scheme, !scheme.isEmpty else {
      throw AuthError(
        .misconfigured,
        "The redirect URI \(redirectURI.absoluteString) has no scheme; use the app's reversed "
          + "client id, as OpenIDConnectProvider.appRedirectURI(reversedClientID:) makes.")
    }
    let state = Base64URL.encode(try Crypto.randomBytes(16))
    let pkce = try PKCE.generate()
    let url = client.authorizationURL(
      redirectURI: redirectURI, scopes: scopes, state: state, nonce: nonce, pkce: pkce, extra: extra)
    let callback: URL
    do {
      callback = try await withTimeout(configuration.timeout, clock: self.clock) {
        try await webSession.authenticate(at: url, callbackScheme: scheme)
      }
    } catch is TimeoutError {
      throw AuthError(.timeout, "The sign-in sheet did not come back in time. Start the sign-in again.")
    }
    let query = try Self.query(ofCallback: callback, redirectURI: redirectURI)
    return try await Self.exchange(query, expectedState: state, client: client, redirectURI: redirectURI, pkce: pkce)
  }

  /// Checks the redirect's `state` and error, then exchanges its code.
  static func exchange(
    _ query: [String: String], expectedState: String, client: OIDCClient, redirectURI: URL, pkce: PKCE
  ) async throws -> OAuthTokens {
    guard query["state"] == expectedState else {
      throw AuthError(
        .invalidCredential, "The redirect's state does not match the request, so it may be forged. Sign in again.")
    }
    if let error = query["error"] {
      if error == "access_denied" {
        throw AuthError(
          .userCancelled, "Access was denied at the identity provider; nothing changed.", serverMessage: error)
      }
      throw AuthError(
        .invalidCredential,
        "The identity provider answered \(error)\(query["error_description"].map { ": \($0)" } ?? "").",
        serverMessage: error)
    }
    guard let code = query["code"], !code.isEmpty else {
      throw AuthError(.invalidResponse, "The redirect carries no authorization code. Sign in again.")
    }
    return try await client.exchange(code: code, redirectURI: redirectURI, pkce: pkce)
  }

  private func deviceFlow(_ client: OIDCClient, scopes: [String]) async throws -> OAuthTokens {
    let authorization = try await client.startDeviceAuthorization(
      scopes: scopes, endpoint: configuration.deviceEndpoint)
    await present(
      .enterCode(
        userCode: authorization.userCode, verificationURL: authorization.verificationURI,
        completeURL: authorization.verificationURIComplete))
    return try await client.pollDeviceToken(authorization, clock: self.clock)
  }

  /// Prints the prompt on standard error and, for a URL, opens the browser when
  /// `xdg-open` or `open` exists.
  public static let printAndOpen: @Sendable (Prompt) async -> Void = { prompt in
    FileHandle.standardError.write(Data((prompt.instructions + "\n").utf8))
    if case .openBrowser(let url) = prompt { openInBrowser(url) }
  }
}

/// ``OpenIDConnectProvider``'s name from before it took any issuer.
@available(*, deprecated, renamed: "OpenIDConnectProvider")
public typealias GoogleProvider = OpenIDConnectProvider
