import Foundation
import SignInConcurrency
import SignInCrypto
import SignInHTTP
import SignInWire

/// Firebase Authentication (and Google Identity Platform) over its REST wire format: Identity
/// Toolkit v1 `accounts:*` calls and the Secure Token refresh, in production or against the
/// Auth emulator. Swap it in for `EmbeddedBackend` and nothing else changes.
///
/// ```swift
/// let backend = try FirebaseBackend(apiKey: "AIza…", projectID: "my-project")
/// let auth = Auth(backend: backend, store: Auth.defaultSessionStore(namespace: "my-app"))
/// ```
///
/// When `FIREBASE_AUTH_EMULATOR_HOST` is set (`host:port`), requests go to the emulator at that
/// address, as the official SDKs do; ``emulator(host:projectID:apiKey:transport:clock:)`` chooses it
/// explicitly.
///
/// Requests carry the API key as `key=`, `X-Client-Version`, and, when configured,
/// `X-Firebase-GMPID` (the app id), `X-Ios-Bundle-Identifier` and `X-Firebase-Locale`. Only the
/// token refresh, which is idempotent, is retried, and only after transient failures (network,
/// timeout, 5xx, 429), with exponential backoff.
///
/// - Concurrency: `Sendable` value; calls run concurrently. Cancelling the calling task cancels
///   the HTTP request and throws ``AuthError/Code/cancelled``; a failed call changes nothing.
public struct FirebaseBackend: AuthBackend {
  public static let clientVersion = "Swift/SignInKit/0.1.0"

  public let apiKey: String
  public let projectID: String
  /// The Firebase app id (`GOOGLE_APP_ID`), sent as `X-Firebase-GMPID`.
  public var appID: String?
  /// Sent as `X-Ios-Bundle-Identifier`, for API keys restricted to an iOS app.
  public var bundleID: String?
  /// The language of emails the backend sends (`X-Firebase-Locale`), such as `fr`.
  public var languageCode: String?
  /// The emulator to talk to, or `nil` for production.
  public let emulatorHost: FirebaseEmulatorHost?
  public let transport: any HTTPTransport
  /// How long to wait for each reply.
  public var requestTimeout: Duration = .seconds(30)
  /// Attempts at a token refresh, the first included, when failures are transient.
  public var refreshAttempts = 3
  /// The waits between refresh attempts.
  public var refreshBackoff = RetryBackoff(initial: .milliseconds(500), maximum: .seconds(4), jitter: 0.2)
  /// The Identity Platform tenant whose users this backend signs in (FirebaseAuth's
  /// `Auth.tenantID`): sent as `tenantId` on every call that takes one. `nil` for the project's
  /// own users.
  public var tenantID: String?
  /// How the app proves itself before a code is texted, in production: ``SilentPushAppVerifier``
  /// or ``RecaptchaAppVerifier``. `nil` sends no proof, as FirebaseAuth does with app
  /// verification disabled for testing: only Firebase's fictional test numbers then get a code.
  /// The emulator never asks for one.
  public var appVerifier: (any PhoneAppVerifier)?
  /// App Check, for projects that enforce it: where tokens come from and which kind to send.
  public var appCheck: AppCheck?
  /// reCAPTCHA Enterprise, for projects that protect email/password or phone sign-in with it:
  /// where tokens come from. Without one, a call the project refuses for want of a token fails
  /// with ``AuthError/Code/recaptchaRequired``, and nothing is sent or texted.
  public var recaptcha: (any RecaptchaTokenProvider)?
  let clock: any Clock<Duration>
  /// The wall clock that says when an App Check token expired; tests set their own.
  public var now: @Sendable () -> Date = { Date() }
  /// The App Check token last sent, reused until it expires.
  let appCheckCache = Locked<AppCheckToken?>(nil)
  /// The reCAPTCHA settings read so far, by tenant id (`""` for the project's own users).
  let recaptchaSettings = Locked<[String: RecaptchaConfigReply]>([:])
  /// The service the calls go to in the same process, instead of HTTP.
  package var inProcess: (any IdentityToolkitTransport)?

  /// App Check for a ``FirebaseBackend``: the provider of tokens, and whether each call asks for
  /// a limited-use token (replay protection) or reuses one until it expires.
  ///
  /// - Concurrency: `Sendable` value.
  public struct AppCheck: Sendable {
    public var provider: any AppCheckTokenProvider
    /// Ask for a token the server accepts once, for every call.
    public var limitedUse: Bool

    public init(provider: any AppCheckTokenProvider, limitedUse: Bool = false) {
      self.provider = provider
      self.limitedUse = limitedUse
    }
  }

  /// A backend for the project; the emulator when `environment` has
  /// `FIREBASE_AUTH_EMULATOR_HOST`.
  ///
  /// - Throws: ``AuthError/Code/misconfigured`` when the API key or project id is empty, or the
  ///   emulator host is not `host:port`.
  public init(
    apiKey: String, projectID: String, appID: String? = nil, bundleID: String? = nil,
    languageCode: String? = nil, transport: any HTTPTransport = URLSessionTransport(),
    environment: [String: String] = ProcessInfo.processInfo.environment,
    clock: any Clock<Duration> = ContinuousClock()
  ) throws {
    let emulator = try environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { value in
      value.isEmpty ? nil : try FirebaseEmulatorHost(value)
    }
    try self.init(
      apiKey: apiKey, projectID: projectID, appID: appID, bundleID: bundleID, languageCode: languageCode,
      emulatorHost: emulator, transport: transport, clock: clock)
  }

  /// A backend for the project described by `configuration` (a `GoogleService-Info.plist` or
  /// JSON file).
  public init(
    configuration: FirebaseConfiguration, languageCode: String? = nil,
    transport: any HTTPTransport = URLSessionTransport(),
    environment: [String: String] = ProcessInfo.processInfo.environment,
    clock: any Clock<Duration> = ContinuousClock()
  ) throws {
    try self.init(
      apiKey: configuration.apiKey, projectID: configuration.projectID, appID: configuration.appID,
      bundleID: configuration.bundleID, languageCode: languageCode, transport: transport,
      environment: environment, clock: clock)
  }

  /// A backend for the Auth emulator at `host` (`host:port`). The emulator accepts any
  /// non-empty API key.
  public static func emulator(
    host: String = "127.0.0.1:9099", projectID: String, apiKey: String = "fake-api-key",
    transport: any HTTPTransport = URLSessionTransport(), clock: any Clock<Duration> = ContinuousClock()
  ) throws -> FirebaseBackend {
    try FirebaseBackend(
      apiKey: apiKey, projectID: projectID, appID: nil, bundleID: nil, languageCode: nil,
      emulatorHost: FirebaseEmulatorHost(host), transport: transport, clock: clock)
  }

  init(
    apiKey: String, projectID: String, appID: String?, bundleID: String?, languageCode: String?,
    emulatorHost: FirebaseEmulatorHost?, transport: any HTTPTransport, clock: any Clock<Duration>
  ) throws {
    guard !apiKey.allSatisfy(\.isWhitespace) else {
      throw AuthError(.misconfigured, "The Firebase API key is empty. Copy API_KEY from GoogleService-Info.plist.")
    }
    guard !projectID.allSatisfy(\.isWhitespace) else {
      throw AuthError(
        .misconfigured, "The Firebase project id is empty. Copy PROJECT_ID from GoogleService-Info.plist.")
    }
    self.apiKey = apiKey
    self.projectID = projectID
    self.appID = appID
    self.bundleID = bundleID
    self.languageCode = languageCode
    self.emulatorHost = emulatorHost
    self.transport = transport
    self.clock = clock
  }

  /// This backend for tenant `tenantID`'s users: the same project, transport and providers.
  public func forTenant(_ tenantID: String?) throws -> any AuthBackend {
    var backend = self
    backend.tenantID = tenantID
    return backend
  }

  // MARK: - Requests

  func headers(contentType: String?) -> [(name: String, value: String)] {
    var headers: [(name: String, value: String)] = []
    if let contentType { headers.append(("Content-Type", contentType)) }
    headers.append(("X-Client-Version", Self.clientVersion))
    if let appID { headers.append(("X-Firebase-GMPID", appID)) }
    if let bundleID { headers.append(("X-Ios-Bundle-Identifier", bundleID)) }
    if let languageCode { headers.append(("X-Firebase-Locale", languageCode)) }
    return headers
  }

  /// Sends `body` to `endpoint` and returns its reply.
  ///
  /// - Parameter placeholders: values for the path's placeholders besides `{project}`, which is
  ///   this backend's project.
  func call<Body, Reply>(
    _ endpoint: Endpoint<Body, Reply>, _ body: Body, placeholders: [String: String] = [:]
  ) async throws -> Reply {
    try await call(endpoint, body, placeholders: placeholders, on: endpoint.paths[0])
  }

  /// Sends `body` to `endpoint` on `path`: to the in-process service when there is one, else
  /// over HTTP.
  func call<Body, Reply>(
    _ endpoint: Endpoint<Body, Reply>, _ body: Body, placeholders: [String: String], on path: EndpointPath
  ) async throws -> Reply {
    guard let inProcess else {
      return try await exchange(try request(endpoint, body, placeholders: placeholders, on: path), call: endpoint.name)
    }
    var values = placeholders
    values["project"] = values["project"] ?? projectID
    return try await inProcess.send(endpoint, namingTenant(body), on: path, placeholders: values)
  }

  /// `body` with this backend's tenant in its `tenantId`, when it takes one.
  func namingTenant<Body: WireBody>(_ body: Body) -> Body {
    guard let tenantID, var named = body as? any TenantNaming else { return body }
    named.tenantId = tenantID
    return named as? Body ?? body
  }

  /// The HTTP request that sends `body` to `endpoint`: on the emulator's host when there is one;
  /// the API key in the query where the path takes one; the body as JSON (a form for Secure
  /// Token), or in the query for a `GET`.
  ///
  /// - Parameter path: one of the endpoint's paths; by default its first, the client's.
  /// - Throws: ``AuthError/Code/misconfigured`` for an emulator-only route in production.
  func request<Body, Reply>(
    _ endpoint: Endpoint<Body, Reply>, _ body: Body, placeholders: [String: String] = [:],
    on path: EndpointPath? = nil
  ) throws -> HTTPRequest {
    let body = namingTenant(body)
    let path = path ?? endpoint.paths[0]
    var values = placeholders
    values["project"] = values["project"] ?? projectID
    let base: String
    if let emulatorHost {
      base = path.emulatorURL(host: "\(emulatorHost)", values)
    } else if let production = path.productionURL(values) {
      base = production
    } else {
      throw AuthError(
        .misconfigured, "Only the Auth emulator answers \(endpoint.name); production Firebase has no such call.")
    }
    let query =
      (path.callers.takesAPIKey ? [("key", apiKey)] : []) + (try body.queryItems().map { ($0.name, $0.value) })
    let data: Data
    let contentType: String?
    if endpoint.method.takesQueryOnly {
      (data, contentType) = (Data(), nil)
    } else if endpoint.isForm {
      (data, contentType) = (try body.formEncoded(), "application/x-www-form-urlencoded")
    } else {
      (data, contentType) = (try body.encoded(), "application/json")
    }
    guard let url = URL(string: query.isEmpty ? base : base + "?" + FormEncoding.encode(query)) else {
      throw AuthError(.misconfigured, "The request URL for \(endpoint.name) is not valid; check the project id.")
    }
    return HTTPRequest(
      method: endpoint.method.rawValue, url: url,
      headers: path.service == .emulator
        ? (contentType.map { [("Content-Type", $0)] } ?? []) + [("X-Client-Version", Self.clientVersion)]
        : headers(contentType: contentType),
      body: data, timeout: requestTimeout)
  }

  /// Sends `request`, with the App Check token when the backend has ``appCheck``; a reply other
  /// than 2xx with a JSON object becomes an ``AuthError``. A token the server refuses is asked
  /// for anew once, and the request sent again with it.
  func exchange<Reply: Decodable>(_ request: HTTPRequest, call: String) async throws -> Reply {
    if Task.isCancelled { throw AuthError.cancelled }
    var response = try await send(request, refreshingAppCheck: false)
    if appCheck != nil, (400..<500).contains(response.status), Self.failure(response).code == .appCheckFailed {
      response = try await send(request, refreshingAppCheck: true)
    }
    guard (200..<300).contains(response.status) else {
      var failure = Self.failure(response)
      failure.retryAfter = Self.retryAfter(response, now: now())
      throw failure
    }
    // Reply fields are lenient: only a body that is not a JSON object fails here.
    guard let reply = try? JSONDecoder().decode(Reply.self, from: response.body) else {
      throw AuthError(
        .invalidResponse,
        "The server's reply to \(call) is not the expected JSON (\(response.body.count) bytes). "
          + "Try again; if it persists, check the backend's address.")
    }
    return reply
  }

  private func send(_ request: HTTPRequest, refreshingAppCheck: Bool) async throws -> HTTPResponse {
    var request = request
    if appCheck != nil {
      request.headers.append(("X-Firebase-AppCheck", try await appCheckHeader(forcingRefresh: refreshingAppCheck)))
    }
    do {
      return try await transport.send(request)
    } catch {
      throw AuthError.wrapping(error)
    }
  }

  /// The App Check token to send: the last one while it has not expired, else a new one from
  /// the provider; a limited-use one for every call when ``AppCheck/limitedUse``.
  ///
  /// - Throws: ``AuthError/Code/appCheckFailed`` when the provider has no token to give.
  func appCheckHeader(forcingRefresh: Bool = false) async throws -> String {
    guard let appCheck else { throw AuthError(.misconfigured, "This backend has no App Check provider.") }
    if !forcingRefresh, !appCheck.limitedUse,
      let cached = appCheckCache.withLock({ $0 }), cached.expiresAt > now().addingTimeInterval(60)
    {
      return cached.token
    }
    let token: AppCheckToken
    do {
      token =
        try await appCheck.limitedUse
        ? appCheck.provider.limitedUseToken() : appCheck.provider.token(forcingRefresh: forcingRefresh)
    } catch {
      let error = AuthError.wrapping(error)
      if error.code.isCancellation { throw error }
      throw AuthError(
        .appCheckFailed,
        "The App Check provider gave no token (\(error.message)); the project refuses calls without one.")
    }
    if !appCheck.limitedUse { appCheckCache.withLock { $0 = token } }
    return token.token
  }

  /// When a reply's `Retry-After` says to try again: after a number of seconds, or at an HTTP
  /// date; `nil` without one.
  static func retryAfter(_ response: HTTPResponse, now: Date) -> Date? {
    guard let value = response.headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
    if let seconds = Int(value), seconds >= 0 { return now.addingTimeInterval(Double(seconds)) }
    let parser = DateFormatter()
    parser.locale = Locale(identifier: "en_US_POSIX")
    parser.timeZone = TimeZone(identifier: "GMT")
    parser.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return parser.date(from: value)
  }

  /// The error a failed reply stands for: the Firebase error envelope's message when there is
  /// one, else what the HTTP status says (an HTML 502 page from a proxy, say).
  static func failure(_ response: HTTPResponse) -> AuthError {
    if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: response.body),
      let message = envelope.error?.message
    {
      let reason = envelope.error?.errors?.first?.reason
      return FirebaseErrorCatalog.error(serverMessage: message, status: response.status, reason: reason)
    }
    switch response.status {
    case 500...:
      return AuthError(.unavailable, "The server is unavailable (HTTP \(response.status)). Try again later.")
    case 429:
      return AuthError(.tooManyRequests, "Too many requests (HTTP 429). Wait a while, then try again.")
    default:
      return AuthError(
        .invalidResponse,
        "The server answered HTTP \(response.status) without a Firebase error. Check the backend's address and API key."
      )
    }
  }
}
