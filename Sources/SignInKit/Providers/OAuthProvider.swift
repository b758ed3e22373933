import Foundation
import SignInConcurrency
import SignInCrypto
import SignInFoundation
import SignInWire

/// Sign-in with a provider the app does not run itself — Microsoft, Yahoo, GitHub, X, Facebook,
/// Apple on the web, or any `oidc.*` or `saml.*` provider the project configures — through the
/// project's hosted handler, as FirebaseAuth's `OAuthProvider` does: the handler page
/// (`https://AUTH_DOMAIN/__/auth/handler`, or an emulator's `/emulator/auth/handler`) runs the
/// provider's flow, and the app gets back the URL the page finished on, which the backend reads
/// the provider's answer from (``ProviderCredential/responseURL``).
///
/// ```swift
/// let microsoft = OAuthProvider(.microsoft, backend: firebase, scopes: ["mail.read"],
///                               customParameters: ["prompt": "consent", "tenant": "organizations"])
/// try await auth.signIn(with: microsoft)      // or link(with:), reauthenticate(with:)
/// ```
///
/// Where the page opens (``Flow``):
///
/// - **the system web sheet** (`ASWebAuthenticationSession`) on Apple platforms, answering at the
///   app's URL scheme: the reversed ``Site/clientID`` or `app-` and the ``Site/appID`` (register
///   it under `CFBundleURLTypes`, as for FirebaseAuth);
/// - **the desktop browser** elsewhere, answering at a loopback listener
///   (`http://127.0.0.1:PORT/callback`). Only `signin serve`'s handler answers a loopback
///   address; Firebase's handler and the Firebase emulator's hand a desktop app no answer, so on
///   Linux against Firebase, sign in with ``OpenIDConnectProvider`` and the provider's own client.
///
/// - Concurrency: actor. One sign-in at a time; ``credential()`` honours cancellation (the sheet
///   or the listener closes) and times out after ``Configuration/timeout``.
public actor OAuthProvider: SignInProvider {
  /// Where the page opens.
  ///
  /// - Concurrency: `Sendable` value.
  public enum Flow: Sendable, Equatable {
    /// The system web sheet where there is one, else the desktop browser.
    case automatic
    /// The system web sheet (``WebAuthenticationSession``), answering at the app's URL scheme.
    case webSheet
    /// The desktop browser, answering at a loopback listener.
    case browser
  }

  /// The handler page and the app that opens it.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Site: Sendable, Equatable {
    /// The handler page; `nil` asks the backend for its auth domain when the sign-in starts.
    public var handlerURL: URL?
    public var apiKey: String
    /// The app's bundle id (`ibi`); the handler shows it to the provider's consent page.
    public var bundleID: String?
    /// The app's iOS OAuth client id (`CLIENT_ID`): its reverse is the callback scheme.
    public var clientID: String?
    /// The Firebase app id (`GOOGLE_APP_ID`): the callback scheme when there is no client id.
    public var appID: String?
    /// The language of the handler's pages (`hl`).
    public var languageCode: String?

    public init(
      handlerURL: URL?, apiKey: String, bundleID: String? = Bundle.main.bundleIdentifier, clientID: String? = nil,
      appID: String? = nil, languageCode: String? = nil
    ) {
      self.handlerURL = handlerURL
      self.apiKey = apiKey
      self.bundleID = bundleID
      self.clientID = clientID
      self.appID = appID
      self.languageCode = languageCode
    }

    /// Firebase's handler for `authDomain` (`my-project.firebaseapp.com`, or a custom domain).
    public static func firebase(
      authDomain: String, apiKey: String, bundleID: String? = Bundle.main.bundleIdentifier, clientID: String? = nil,
      appID: String? = nil
    ) -> Site {
      Site(
        handlerURL: URL(string: "https://\(authDomain)/__/auth/handler"), apiKey: apiKey, bundleID: bundleID,
        clientID: clientID, appID: appID)
    }

    /// The handler of an emulator, or `signin serve`, at `host` (`127.0.0.1:9099`).
    public static func emulator(
      host: String, apiKey: String = "fake-api-key", bundleID: String? = Bundle.main.bundleIdentifier,
      clientID: String? = nil, appID: String? = nil
    ) -> Site {
      Site(
        handlerURL: URL(string: "http://\(host)/emulator/auth/handler"), apiKey: apiKey, bundleID: bundleID,
        clientID: clientID, appID: appID)
    }

    /// The scheme the handler answers a web sheet at: the reversed client id, else `app-` and
    /// the app id.
    public var callbackScheme: String? { HandlerCallbackScheme.scheme(clientID: clientID, appID: appID) }
  }

  /// The provider and what to ask it for.
  ///
  /// - Concurrency: `Sendable` value.
  public struct Configuration: Sendable, Equatable {
    /// `microsoft.com`, `yahoo.com`, `github.com`, `twitter.com`, `facebook.com`, `apple.com`,
    /// `oidc.NAME` or `saml.NAME`.
    public var providerID: ProviderID
    public var site: Site
    /// OAuth scopes beyond the provider's defaults (`mail.read`, `repo`).
    public var scopes: [String]
    /// Parameters the provider's authorization request takes (`prompt`, `login_hint`,
    /// Microsoft's `tenant`).
    public var customParameters: [String: String]
    /// The Identity Platform tenant to sign in to; must be the `Auth`'s.
    public var tenantID: String?
    public var flow: Flow
    /// How long to wait for the page to answer.
    public var timeout: Duration
    /// The loopback port of the browser flow (0: random).
    public var redirectPort: UInt16

    public init(
      providerID: ProviderID, site: Site, scopes: [String] = [], customParameters: [String: String] = [:],
      tenantID: String? = nil, flow: Flow = .automatic, timeout: Duration = .seconds(300), redirectPort: UInt16 = 0
    ) {
      self.providerID = providerID
      self.site = site
      self.scopes = scopes
      self.customParameters = customParameters
      self.tenantID = tenantID
      self.flow = flow
      self.timeout = timeout
      self.redirectPort = redirectPort
    }
  }

  public nonisolated let id: ProviderID
  public nonisolated let configuration: Configuration
  /// Asks for the auth domain when ``Site/handlerURL`` is `nil`.
  private let backend: FirebaseBackend?
  private let webSession: (any WebAuthenticationSession)?
  private let surface: SignInSurface
  private let clock: any Clock<Duration>
  private let present: @Sendable (OpenIDConnectProvider.Prompt) async -> Void

  /// - Parameters:
  ///   - configuration: the provider, the handler, the flow.
  ///   - webSession: shows the page for ``Flow/webSheet``; by default the system sheet where
  ///     there is one.
  ///   - surface: what this platform can show, which decides ``Flow/automatic``.
  ///   - clock: times the wait for the answer.
  ///   - present: shows the browser flow's URL; by default it is printed and opened.
  public init(
    configuration: Configuration, webSession: (any WebAuthenticationSession)? = nil,
    surface: SignInSurface = .current, clock: any Clock<Duration> = ContinuousClock(),
    present: (@Sendable (OpenIDConnectProvider.Prompt) async -> Void)? = nil
  ) {
    self.init(
      configuration: configuration, backend: nil, webSession: webSession, surface: surface, clock: clock,
      present: present)
  }

  /// The provider through the hosted handler of `backend`'s project: its emulator's, or
  /// Firebase's on the project's auth domain (asked of the project when `authDomain` is `nil`),
  /// with the backend's API key, app id, bundle id and tenant.
  public init(
    _ providerID: ProviderID, backend: FirebaseBackend, scopes: [String] = [],
    customParameters: [String: String] = [:], authDomain: String? = nil, clientID: String? = nil,
    flow: Flow = .automatic, webSession: (any WebAuthenticationSession)? = nil, surface: SignInSurface = .current,
    clock: any Clock<Duration> = ContinuousClock(),
    present: (@Sendable (OpenIDConnectProvider.Prompt) async -> Void)? = nil
  ) {
    var site = Site(
      handlerURL: nil, apiKey: backend.apiKey, bundleID: backend.bundleID, clientID: clientID, appID: backend.appID,
      languageCode: backend.languageCode)
    if let host = backend.emulatorHost {
      site.handlerURL = Site.emulator(host: "\(host)", apiKey: backend.apiKey).handlerURL
    } else if let authDomain {
      site.handlerURL = Site.firebase(authDomain: authDomain, apiKey: backend.apiKey).handlerURL
    }
    self.init(
      configuration: Configuration(
        providerID: providerID, site: site, scopes: scopes, customParameters: customParameters,
        tenantID: backend.tenantID, flow: flow),
      backend: backend, webSession: webSession, surface: surface, clock: clock, present: present)
  }

  private init(
    configuration: Configuration, backend: FirebaseBackend?, webSession: (any WebAuthenticationSession)?,
    surface: SignInSurface, clock: any Clock<Duration>,
    present: (@Sendable (OpenIDConnectProvider.Prompt) async -> Void)?
  ) {
    id = configuration.providerID
    self.configuration = configuration
    self.backend = backend
    self.webSession = webSession ?? (surface.hasSystemWebSheet ? SystemWebSheet.session : nil)
    self.surface = surface
    self.clock = clock
    self.present = present ?? OpenIDConnectProvider.printAndOpen
  }

  /// Opens the handler for ``Configuration/providerID`` and waits for its answer.
  ///
  /// - Returns: a credential that carries the handler's answer (``ProviderCredential/responseURL``)
  ///   and the session id whose hash the page was given; the backend checks both.
  /// - Throws: at once, ``AuthError/Code/misconfigured`` when the flow cannot work here (no sheet,
  ///   no callback scheme, no browser); ``AuthError/Code/userCancelled`` when the person closes
  ///   the sheet; ``AuthError/Code/timeout``; ``AuthError/Code/invalidResponse`` for an answer to
  ///   another sign-in; the handler's own error (``AuthError/Code/invalidCredential``).
  public func credential() async throws -> ProviderCredential {
    let eventID = Base64URL.encode(try Crypto.randomBytes(12))
    let sessionID = Base64URL.encode(try Crypto.randomBytes(24))
    let flow = try chosenFlow()
    let page = try await handlerURL()
    let answer: [String: String]
    do {
      answer = try await withTimeout(configuration.timeout, clock: self.clock) {
        switch flow {
        case .webSheet: try await self.sheetAnswer(page: page, eventID: eventID, sessionID: sessionID)
        default: try await self.browserAnswer(page: page, eventID: eventID, sessionID: sessionID)
        }
      }
    } catch is TimeoutError {
      throw AuthError(.timeout, "The \(id) sign-in page did not answer in time. Start the sign-in again.")
    } catch is CancellationError {
      // Cancelled, the deadline's sleep can end the race before the sheet or the listener says
      // so itself: the same answer either way.
      throw AuthError(.cancelled, "The \(id) sign-in was cancelled before its page answered; nothing changed.")
    }
    let link = try HostedHandler.signInLink(from: answer, eventID: eventID, provider: id)
    return .hosted(id, responseURL: link, sessionID: sessionID, tenantID: configuration.tenantID)
  }

  /// Nothing to forget: the provider's tokens stay with the handler and the backend.
  public func signOut() async {}

  // MARK: - Flows

  private func chosenFlow() throws -> Flow {
    switch configuration.flow {
    case .webSheet, .browser: return configuration.flow
    case .automatic:
      if surface.hasSystemWebSheet, webSession != nil { return .webSheet }
      if surface.hasDesktopBrowser { return .browser }
      throw AuthError(
        .misconfigured,
        "This platform has no web sheet and no desktop browser for the \(id) sign-in page; pass a "
          + "WebAuthenticationSession and flow .webSheet.")
    }
  }

  private func handlerURL() async throws -> URL {
    if let url = configuration.site.handlerURL { return url }
    guard let backend else {
      throw AuthError(.misconfigured, "Give the OAuthProvider's Site a handlerURL (Site.firebase(authDomain:…)).")
    }
    let domain = try await backend.authDomain()
    guard let url = URL(string: "https://\(domain)/__/auth/handler") else {
      throw AuthError(.misconfigured, "The auth domain \(domain) does not make a URL; check it.")
    }
    return url
  }

  private func sheetAnswer(page: URL, eventID: String, sessionID: String) async throws -> [String: String] {
    guard let webSession else {
      throw AuthError(
        .misconfigured, "The web-sheet flow needs a WebAuthenticationSession on this platform; pass one.")
    }
    guard let scheme = configuration.site.callbackScheme else {
      throw AuthError(
        .misconfigured,
        "The \(id) sign-in answers at the app's URL scheme: set the Site's clientID (CLIENT_ID) or appID "
          + "(GOOGLE_APP_ID), and register its scheme under CFBundleURLTypes.")
    }
    let url = HostedHandler.signInURL(
      page: page, configuration: configuration, eventID: eventID, sessionID: sessionID, answer: .appScheme)
    let callback = try await webSession.authenticate(at: url, callbackScheme: scheme)
    return try HostedHandler.answer(in: callback, callbackScheme: scheme)
  }

  private func browserAnswer(page: URL, eventID: String, sessionID: String) async throws -> [String: String] {
    let listener = try LoopbackRedirectListener(port: configuration.redirectPort)
    defer { listener.close() }
    let url = HostedHandler.signInURL(
      page: page, configuration: configuration, eventID: eventID, sessionID: sessionID,
      answer: .loopback(listener.redirectURI))
    await present(.openBrowser(url))
    return try await listener.receive()
  }
}
