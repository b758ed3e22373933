import Foundation
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
  let clock: any Clock<Duration>

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
    guard !apiKey.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw AuthError(.misconfigured, "The Firebase API key is empty. Copy API_KEY from GoogleService-Info.plist.")
    }
    guard !projectID.trimmingCharacters(in: .whitespaces).isEmpty else {
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

  // MARK: - Requests

  /// `https://identitytoolkit.googleapis.com/v1/accounts:METHOD?key=KEY`, or their emulator
  /// form. A method on a sub-collection (version 2's `mfaEnrollment:start`) follows a slash:
  /// `…/v2/accounts/mfaEnrollment:start`; one on the accounts themselves a colon:
  /// `…/v2/accounts:revokeToken`.
  func identityToolkitURL(_ method: String, version: Int = 1) -> URL {
    let separator = method.contains(":") ? "/" : ":"
    return url(host: "identitytoolkit.googleapis.com", path: "/v\(version)/accounts\(separator)\(method)")
  }

  /// `https://securetoken.googleapis.com/v1/token?key=KEY`, or its emulator form.
  var secureTokenURL: URL { url(host: "securetoken.googleapis.com", path: "/v1/token") }

  private func url(host: String, path: String) -> URL {
    let base = emulatorHost.map { "http://\($0)/\(host)" } ?? "https://\(host)"
    return URL(string: base + path + "?key=" + FormEncoding.escape(apiKey))!
  }

  func headers(contentType: String) -> [(name: String, value: String)] {
    var headers: [(name: String, value: String)] = [
      ("Content-Type", contentType), ("X-Client-Version", Self.clientVersion),
    ]
    if let appID { headers.append(("X-Firebase-GMPID", appID)) }
    if let bundleID { headers.append(("X-Ios-Bundle-Identifier", bundleID)) }
    if let languageCode { headers.append(("X-Firebase-Locale", languageCode)) }
    return headers
  }

  /// POSTs `body` as JSON to `accounts:METHOD` (or v2's `accounts/METHOD`) and returns the reply.
  func call<Reply: Decodable>(_ method: String, _ body: some WireBody, version: Int = 1) async throws -> Reply {
    let request = HTTPRequest(
      url: identityToolkitURL(method, version: version), headers: headers(contentType: "application/json"),
      body: try body.encoded(), timeout: requestTimeout)
    return try await exchange(request, call: method)
  }

  /// Sends `request`; a reply other than 2xx with a JSON object becomes an ``AuthError``.
  func exchange<Reply: Decodable>(_ request: HTTPRequest, call: String) async throws -> Reply {
    if Task.isCancelled { throw AuthError.cancelled }
    let response: HTTPResponse
    do {
      response = try await transport.send(request)
    } catch {
      throw AuthError.wrapping(error)
    }
    guard (200..<300).contains(response.status) else { throw Self.failure(response) }
    // Reply fields are lenient: only a body that is not a JSON object fails here.
    guard let reply = try? JSONDecoder().decode(Reply.self, from: response.body) else {
      throw AuthError(
        .invalidResponse,
        "The server's reply to \(call) is not the expected JSON (\(response.body.count) bytes). "
          + "Try again; if it persists, check the backend's address.")
    }
    return reply
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
